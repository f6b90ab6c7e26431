// The Testing view: a TestController fed by aisbx/discoverTests, and run
// profiles that call the daemon's sandbox runs through workspace/executeCommand.
import * as vscode from 'vscode';
import { ExecuteCommandRequest } from 'vscode-languageclient/node';
import type { LanguageClient } from 'vscode-languageclient/node';
import { command, commandFor, method } from './protocol';
import type { DiscoverTestsResult, RunSummary } from './protocol';
import { RunTracker } from './runTracker';
import { TestTree } from './testTree';

/** Languages whose files can hold tests aisbx discovers. */
export const testLanguages = new Set(['go', 'python', 'javascript', 'javascriptreact', 'typescript', 'typescriptreact']);

/** JSON-RPC's "method not found": a server without discovery yet. */
const methodNotFound = -32601;

export class Testing implements vscode.Disposable {
  readonly ctrl: vscode.TestController;
  readonly tree: TestTree;
  readonly tracker: RunTracker;
  private discoveryOff = false;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly client: () => LanguageClient | undefined,
    private readonly output: vscode.OutputChannel,
    onFinished: (s: RunSummary) => void,
  ) {
    this.ctrl = vscode.tests.createTestController('aisbx', 'aisbx sandbox');
    this.tree = new TestTree(this.ctrl);
    this.tracker = new RunTracker(this.tree, {
      newRun: (n, items) =>
        this.ctrl.createTestRun(new vscode.TestRunRequest(items.length > 0 ? items : undefined), n.title, true),
      output: (text) => this.output.appendLine(text),
      finished: onFinished,
    });
    this.ctrl.resolveHandler = async (item) => {
      if (!item) {
        await this.discoverWorkspace();
      }
    };
    this.ctrl.refreshHandler = () => this.discoverWorkspace();
    this.ctrl.createRunProfile('Run in sandbox', vscode.TestRunProfileKind.Run, (req, token) => this.runItems(req, token), true);
    this.ctrl.createRunProfile('Run affected tests in sandbox', vscode.TestRunProfileKind.Run, (req, token) => this.runAffected(req, token), false);
    this.disposables.push(
      this.ctrl,
      vscode.workspace.onDidOpenTextDocument((d) => this.discoverDocument(d)),
      vscode.workspace.onDidSaveTextDocument((d) => this.discoverDocument(d)),
      vscode.workspace.onDidChangeWorkspaceFolders((e) => {
        for (const f of e.added) {
          void this.discover(f.uri, true);
        }
        for (const f of e.removed) {
          this.tree.replace(f.uri.toString(), true, []);
        }
      }),
    );
  }

  /** Discovers every workspace folder and the open test files. */
  async discoverWorkspace(): Promise<void> {
    for (const f of vscode.workspace.workspaceFolders ?? []) {
      await this.discover(f.uri, true);
    }
  }

  private discoverDocument(d: vscode.TextDocument): void {
    if (d.uri.scheme === 'file' && testLanguages.has(d.languageId)) {
      void this.discover(d.uri, false);
    }
  }

  async discover(uri: vscode.Uri, folder: boolean): Promise<void> {
    const c = this.client();
    if (!c || this.discoveryOff || !c.isRunning()) {
      return;
    }
    try {
      const res = await c.sendRequest<DiscoverTestsResult | null>(method.discoverTests, { uri: uri.toString() });
      this.tree.replace(uri.toString(), folder, res?.tests ?? []);
    } catch (err) {
      if ((err as { code?: number }).code === methodNotFound) {
        this.discoveryOff = true;
        this.output.appendLine('aisbx: this aisbxd does not discover tests (aisbx/discoverTests); the Testing view stays empty');
        return;
      }
      this.output.appendLine(`aisbx: discovering tests in ${uri.fsPath}: ${String(err)}`);
    }
  }

  /** Sends one run command; the tracker maps its notifications onto run. */
  async execute(run: vscode.TestRun | undefined, cmd: string, args: object, token?: vscode.CancellationToken): Promise<RunSummary | undefined> {
    const c = this.client();
    if (!c) {
      throw new Error('aisbxd is not running');
    }
    const claim = run ? this.tracker.expect(run) : undefined;
    try {
      const s = await c.sendRequest(ExecuteCommandRequest.type, { command: cmd, arguments: [args] }, token);
      const summary = (s ?? undefined) as RunSummary | undefined;
      if (claim) {
        claim.finish(summary);
      } else if (summary) {
        this.tracker.onRunFinished(summary);
      }
      return summary;
    } catch (err) {
      const msg = token?.isCancellationRequested ? 'run cancelled' : err instanceof Error ? err.message : String(err);
      claim?.abort(msg);
      if (!claim) {
        throw err;
      }
      return undefined;
    }
  }

  private async runItems(req: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const run = this.ctrl.createTestRun(req, 'aisbx sandbox', true);
    const excluded = new Set((req.exclude ?? []).map((i) => i.id));
    const targets: vscode.TestItem[] = [];
    if (req.include) {
      targets.push(...req.include);
    } else {
      this.ctrl.items.forEach((i) => targets.push(i));
    }
    try {
      for (const item of targets) {
        if (token.isCancellationRequested) {
          break;
        }
        if (excluded.has(item.id) || !item.uri) {
          continue;
        }
        const { command: cmd, args } = commandFor(this.tree.kind(item.id), item.id, item.uri.toString());
        await this.execute(run, cmd, args, token);
      }
    } finally {
      run.end();
    }
  }

  private async runAffected(req: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const run = this.ctrl.createTestRun(req, 'aisbx affected tests', true);
    const folders = new Map<string, vscode.Uri>();
    for (const item of req.include ?? []) {
      const f = item.uri && vscode.workspace.getWorkspaceFolder(item.uri);
      if (f) {
        folders.set(f.uri.toString(), f.uri);
      }
    }
    if (folders.size === 0) {
      for (const f of vscode.workspace.workspaceFolders ?? []) {
        folders.set(f.uri.toString(), f.uri);
      }
    }
    try {
      for (const uri of folders.values()) {
        if (token.isCancellationRequested) {
          break;
        }
        await this.execute(run, command.runAffected, { uri: uri.toString() }, token);
      }
    } finally {
      run.end();
    }
  }

  dispose(): void {
    for (const d of this.disposables) {
      d.dispose();
    }
  }
}
