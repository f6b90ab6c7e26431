// A stand-in for the 'vscode' module, so that the extension's logic runs
// under node --test: the bundler aliases 'vscode' to this file for the unit
// tests only. It implements the few value types and factories the tested
// modules use, with VS Code's semantics (a TestItem belongs to one
// collection; ranges are zero-based); the end-to-end test runs the real one.
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export class Uri {
  private constructor(
    readonly scheme: string,
    private readonly href: string,
  ) {}

  static parse(s: string): Uri {
    return new Uri(s.slice(0, Math.max(0, s.indexOf(':'))), s);
  }

  static file(p: string): Uri {
    return new Uri('file', pathToFileURL(p).href);
  }

  static joinPath(base: Uri, ...parts: string[]): Uri {
    return Uri.file(path.join(base.fsPath, ...parts));
  }

  get fsPath(): string {
    return this.scheme === 'file' ? fileURLToPath(this.href) : this.href;
  }

  toString(): string {
    return this.href;
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(a: number | Position, b: number | Position, c?: number, d?: number) {
    if (typeof a === 'number' && typeof b === 'number') {
      this.start = new Position(a, b);
      this.end = new Position(c ?? a, d ?? b);
    } else {
      this.start = a as Position;
      this.end = b as Position;
    }
  }
}

export class Location {
  constructor(
    readonly uri: Uri,
    readonly range: Range,
  ) {}
}

export class TestMessage {
  location: Location | undefined;
  constructor(readonly message: string) {}
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}

export enum TestRunProfileKind {
  Run = 1,
  Debug = 2,
  Coverage = 3,
}

export class TestRunRequest {
  constructor(
    readonly include?: TestItem[],
    readonly exclude?: TestItem[],
  ) {}
}

export class TestItemCollection {
  private readonly map = new Map<string, TestItem>();
  constructor(private readonly owner: TestItem | undefined) {}

  get size(): number {
    return this.map.size;
  }

  add(item: TestItem): void {
    if (item.parent !== this.owner && (item.parent || item.attached)) {
      throw new Error(`test item ${item.id} already has a parent`);
    }
    item.parent = this.owner;
    item.attached = true;
    this.map.set(item.id, item);
  }

  delete(id: string): void {
    const item = this.map.get(id);
    if (item) {
      item.parent = undefined;
      item.attached = false;
      this.map.delete(id);
    }
  }

  get(id: string): TestItem | undefined {
    return this.map.get(id);
  }

  forEach(fn: (item: TestItem) => void): void {
    this.map.forEach((i) => fn(i));
  }

  ids(): string[] {
    return [...this.map.keys()];
  }
}

export class TestItem {
  parent: TestItem | undefined;
  attached = false;
  range: Range | undefined;
  readonly children: TestItemCollection = new TestItemCollection(this);
  constructor(
    readonly id: string,
    public label: string,
    readonly uri: Uri | undefined,
  ) {}
}

export class TestController {
  readonly items = new TestItemCollection(undefined);
  readonly runs: { request: TestRunRequest; name?: string }[] = [];
  readonly profiles: { label: string; kind: TestRunProfileKind; isDefault?: boolean }[] = [];
  resolveHandler: unknown;
  refreshHandler: unknown;
  constructor(
    readonly id: string,
    readonly label: string,
  ) {}

  createTestItem(id: string, label: string, uri?: Uri): TestItem {
    return new TestItem(id, label, uri);
  }

  createTestRun(request: TestRunRequest, name?: string): unknown {
    this.runs.push({ request, name });
    return {};
  }

  createRunProfile(label: string, kind: TestRunProfileKind, _handler: unknown, isDefault?: boolean): unknown {
    this.profiles.push({ label, kind, isDefault });
    return { dispose() {} };
  }

  dispose(): void {}
}

export const tests = {
  createTestController: (id: string, label: string) => new TestController(id, label),
};

export class StatusBarItem {
  text = '';
  tooltip: string | undefined;
  name: string | undefined;
  command: string | undefined;
  backgroundColor: ThemeColor | undefined;
  visible = false;
  constructor(
    readonly id: string,
    readonly alignment: StatusBarAlignment,
    readonly priority: number,
  ) {}
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  dispose(): void {}
}

export const window = {
  statusBarItems: [] as StatusBarItem[],
  createStatusBarItem(id: string, alignment: StatusBarAlignment, priority: number): StatusBarItem {
    const item = new StatusBarItem(id, alignment, priority);
    window.statusBarItems.push(item);
    return item;
  },
};

export const workspace = {
  workspaceFolders: undefined as { uri: Uri; name: string; index: number }[] | undefined,
};
