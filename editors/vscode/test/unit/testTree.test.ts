import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as vscode from 'vscode';
import { parentsFirst, TestTree } from '../../src/testTree';
import type { DiscoveredTest } from '../../src/protocol';

interface Tree {
  [id: string]: Tree;
}

const data: {
  folder: string;
  tests: DiscoveredTest[];
  tree: Tree;
  afterSave: { uri: string; tests: DiscoveredTest[]; tree: Tree };
} = JSON.parse(readFileSync('test/testdata/discovery.json', 'utf8'));

/** The controller's items as nested ids, to compare with the expected tree. */
function shape(c: vscode.TestItemCollection): Tree {
  const out: Tree = {};
  c.forEach((item) => {
    out[item.id] = shape(item.children);
  });
  return out;
}

function newTree() {
  const ctrl = vscode.tests.createTestController('t', 't');
  return { ctrl, tree: new TestTree(ctrl) };
}

test('discovery builds the tree whatever the order of the list', () => {
  const { ctrl, tree } = newTree();
  tree.replace(data.folder, true, data.tests);
  assert.deepEqual(shape(ctrl.items), data.tree);
  const add = tree.get('go:./calc:TestAdd')!;
  assert.equal(add.label, 'TestAdd');
  assert.equal(add.uri?.toString(), 'file:///w/calc/calc_test.go');
  assert.deepEqual([add.range?.start.line, add.range?.end.line], [5, 14]);
  assert.equal(tree.kind('go:./calc'), 'file');
});

test('a save replaces the file\'s tests and keeps the others and unchanged items', () => {
  const { ctrl, tree } = newTree();
  tree.replace(data.folder, true, data.tests);
  const before = tree.get('go:./calc:TestAdd');
  tree.replace(data.afterSave.uri, false, data.afterSave.tests);
  assert.deepEqual(shape(ctrl.items), data.afterSave.tree);
  assert.equal(tree.get('go:./calc:TestAdd'), before, 'an unchanged test keeps its item');
  assert.equal(tree.get('go:./calc:TestAdd')?.range?.end.line, 20, 'its range follows the edit');
  assert.equal(tree.get('go:./calc:TestAdd/negative'), undefined);
});

test('re-discovering the folder with nothing empties it', () => {
  const { ctrl, tree } = newTree();
  tree.replace(data.folder, true, data.tests);
  tree.replace(data.folder, true, []);
  assert.deepEqual(shape(ctrl.items), {});
  assert.equal(tree.size, 0);
});

test('a test that moves to another parent is re-created there', () => {
  const { ctrl, tree } = newTree();
  tree.replace(data.folder, true, data.tests);
  const moved = data.tests.map((t) => (t.id === 'go:./calc:TestSub' ? { ...t, parent: 'go:./calc:TestAdd' } : t));
  tree.replace(data.folder, true, moved);
  assert.deepEqual(Object.keys(shape(ctrl.items)['go:./calc']['go:./calc:TestAdd']).sort(), [
    'go:./calc:TestAdd/negative',
    'go:./calc:TestSub',
  ]);
});

test('results for undiscovered subtests get items under their nearest ancestor', () => {
  const { tree } = newTree();
  tree.replace(data.folder, true, data.tests);
  const table: [string, string | undefined][] = [
    ['go:./calc:TestAdd/zero', 'go:./calc:TestAdd'],
    ['go:./calc:TestAdd/negative/deep', 'go:./calc:TestAdd/negative'],
    ['go:./calc:TestAdd/a/b', 'go:./calc:TestAdd'],
  ];
  for (const [id, parent] of table) {
    const item = tree.resolve(id, id, undefined);
    assert.ok(item, id);
    assert.equal(item.parent?.id, parent, id);
    assert.equal(item.uri?.toString(), 'file:///w/calc/calc_test.go');
  }
  assert.equal(tree.get('go:./calc:TestAdd/a/b')?.label, 'a/b');
  assert.equal(tree.resolve('go:./other:TestX', 'TestX', undefined), undefined, 'no parent and no location: nothing to show');
  const orphan = tree.resolve('go:./other:TestX', 'TestX', { uri: 'file:///w/other/x_test.go', range: { start: { line: 1, character: 0 }, end: { line: 1, character: 5 } } });
  assert.equal(orphan?.parent, undefined);
  assert.equal(orphan?.label, 'TestX');
});

test('parentsFirst survives a parent cycle in bad input', () => {
  const cyc: DiscoveredTest[] = [
    { id: 'a', label: 'a', uri: 'file:///w/a', kind: 'function', parent: 'b' },
    { id: 'b', label: 'b', uri: 'file:///w/a', kind: 'function', parent: 'a' },
    { id: 'c', label: 'c', uri: 'file:///w/a', kind: 'file' },
  ];
  assert.deepEqual(parentsFirst(cyc).map((t) => t.id).sort(), ['a', 'b', 'c']);
  const { tree } = newTree();
  tree.replace('file:///w', true, cyc);
  assert.equal(tree.size, 3);
});
