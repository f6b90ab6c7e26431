import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as vscode from 'vscode';
import { commandFor } from '../../src/protocol';
import { StatusBar } from '../../src/statusBar';

// The stub's window keeps the items it made.
const stubWindow = vscode.window as unknown as { statusBarItems: { text: string; visible: boolean; command?: string; backgroundColor?: unknown }[] };

test('the status bar item follows the daemon state and can be hidden', () => {
  const bar = new StatusBar(true);
  const item = stubWindow.statusBarItems.at(-1)!;
  assert.equal(item.text, '$(sync~spin) aisbx: starting');
  assert.equal(item.visible, true);
  assert.equal(item.command, 'aisbx.vscode.showLastRun');
  bar.setState('running');
  bar.setStatus({
    daemon: { pid: 1, version: 'v1', uptimeMs: 1, shared: true },
    engine: { reachable: true },
    workspaces: [{ root: '/w', pools: [{ profile: 'go', warm: 1, size: 2 }] }],
  });
  assert.equal(item.text, '$(beaker) aisbx: warm');
  bar.setState('stopped');
  assert.equal(item.text, '$(debug-disconnect) aisbx: stopped');
  assert.ok(item.backgroundColor, 'a stopped daemon is shown as a warning');
  bar.setEnabled(false);
  assert.equal(item.visible, false);
});

test('commandFor: files run by file, everything else by test id', () => {
  const table: [string | undefined, { command: string; args: object }][] = [
    ['file', { command: 'aisbx.runFile', args: { uri: 'file:///w/a_test.go' } }],
    ['function', { command: 'aisbx.runTest', args: { uri: 'file:///w/a_test.go', test: 'id' } }],
    ['suite', { command: 'aisbx.runTest', args: { uri: 'file:///w/a_test.go', test: 'id' } }],
    ['subtest', { command: 'aisbx.runTest', args: { uri: 'file:///w/a_test.go', test: 'id' } }],
    [undefined, { command: 'aisbx.runTest', args: { uri: 'file:///w/a_test.go', test: 'id' } }],
  ];
  for (const [kind, want] of table) {
    assert.deepEqual(commandFor(kind, 'id', 'file:///w/a_test.go'), want);
  }
});
