// The Testing view's tree, fed by aisbx/discoverTests. It knows nothing of
// the language client: discovery results come in, TestItems come out.
import * as vscode from 'vscode';
import type { DiscoveredTest, Range as WireRange } from './protocol';

export function toRange(r: WireRange): vscode.Range {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}

function fsPathOf(uri: string): string {
  return vscode.Uri.parse(uri).fsPath;
}

function inScope(uri: string, scope: string, folder: boolean): boolean {
  const p = fsPathOf(uri);
  const s = fsPathOf(scope);
  if (!folder) {
    return p === s;
  }
  return p === s || p.startsWith(s.endsWith('/') ? s : `${s}/`);
}

interface Known {
  test: DiscoveredTest;
  /** Made from a result the discovery did not list (a table-driven subtest). */
  dynamic: boolean;
}

export class TestTree {
  private readonly items = new Map<string, vscode.TestItem>();
  private readonly known = new Map<string, Known>();

  constructor(private readonly ctrl: vscode.TestController) {}

  get(id: string): vscode.TestItem | undefined {
    return this.items.get(id);
  }

  kind(id: string): DiscoveredTest['kind'] | undefined {
    return this.known.get(id)?.test.kind;
  }

  /** The discovered test behind an item. */
  test(id: string): DiscoveredTest | undefined {
    return this.known.get(id)?.test;
  }

  get size(): number {
    return this.items.size;
  }

  /**
   * Replaces what the tree holds for scope (a file, or a folder and
   * everything under it) by tests. Items keep their identity when their id
   * and parent stay the same, so expanded nodes and results survive a save.
   */
  replace(scope: string, folder: boolean, tests: DiscoveredTest[]): void {
    const keep = new Set(tests.map((t) => t.id));
    for (const [id, k] of [...this.known]) {
      if (!keep.has(id) && this.known.has(id) && inScope(k.test.uri, scope, folder)) {
        this.remove(id);
      }
    }
    for (const t of parentsFirst(tests)) {
      this.upsert(t, false);
    }
  }

  /**
   * The item a result is about. A result for an id discovery never listed
   * (subtests of a table test) gets an item under its nearest known
   * ancestor, found by cutting the id at its last '/'.
   */
  resolve(id: string, name: string, location?: { uri: string; range: WireRange }): vscode.TestItem | undefined {
    const have = this.items.get(id);
    if (have) {
      return have;
    }
    let parent: string | undefined;
    for (let cut = id.lastIndexOf('/'); cut > 0; cut = id.lastIndexOf('/', cut - 1)) {
      if (this.items.has(id.slice(0, cut))) {
        parent = id.slice(0, cut);
        break;
      }
    }
    const uri = location?.uri ?? (parent ? this.known.get(parent)?.test.uri : undefined);
    if (!parent && !uri) {
      return undefined;
    }
    const label = parent ? id.slice(parent.length + 1) : name;
    return this.upsert({ id, label, uri: uri ?? '', kind: 'subtest', parent, range: location?.range }, true);
  }

  private upsert(t: DiscoveredTest, dynamic: boolean): vscode.TestItem {
    let item = this.items.get(t.id);
    const old = this.known.get(t.id);
    if (item && old && (old.test.parent ?? '') !== (t.parent ?? '')) {
      this.remove(t.id);
      item = undefined;
    }
    if (!item) {
      item = this.ctrl.createTestItem(t.id, t.label, t.uri ? vscode.Uri.parse(t.uri) : undefined);
      this.collectionOf(t.parent).add(item);
      this.items.set(t.id, item);
    }
    item.label = t.label;
    item.range = t.range ? toRange(t.range) : undefined;
    this.known.set(t.id, { test: t, dynamic });
    return item;
  }

  private collectionOf(parent: string | undefined): vscode.TestItemCollection {
    const p = parent !== undefined ? this.items.get(parent) : undefined;
    return p ? p.children : this.ctrl.items;
  }

  /** Removes an item and forgets its descendants. */
  remove(id: string): void {
    const item = this.items.get(id);
    if (!item) {
      return;
    }
    (item.parent ? item.parent.children : this.ctrl.items).delete(id);
    const gone = new Set([id]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const [cid, k] of this.known) {
        if (!gone.has(cid) && k.test.parent !== undefined && gone.has(k.test.parent)) {
          gone.add(cid);
          grew = true;
        }
      }
    }
    for (const g of gone) {
      this.items.delete(g);
      this.known.delete(g);
    }
  }
}

/** Orders tests so that every parent listed comes before its children. */
export function parentsFirst(tests: DiscoveredTest[]): DiscoveredTest[] {
  const byId = new Map(tests.map((t) => [t.id, t]));
  const depth = new Map<string, number>();
  const depthOf = (t: DiscoveredTest, seen: Set<string>): number => {
    const have = depth.get(t.id);
    if (have !== undefined) {
      return have;
    }
    const p = t.parent !== undefined ? byId.get(t.parent) : undefined;
    // A cycle in bad input must not loop forever: treat it as a root.
    const d = p && !seen.has(p.id) ? depthOf(p, new Set([...seen, t.id])) + 1 : 0;
    depth.set(t.id, d);
    return d;
  };
  return tests
    .map((t, i) => ({ t, i, d: depthOf(t, new Set([t.id])) }))
    .sort((a, b) => a.d - b.d || a.i - b.i)
    .map((x) => x.t);
}
