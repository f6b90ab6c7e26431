// The aisbx VS Code extension: starts aisbxd as a language server and adds
// the UI the LSP has no place for (Testing view, status bar, palette
// commands, test output). Read activate first.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as vscode from 'vscode';
import { ExecuteCommandRequest } from 'vscode-languageclient/node';
import type { LanguageClient } from 'vscode-languageclient/node';
import { daemonLogPath } from './binary';
import { formatSummary, summaryLine } from './format';
import { command, method } from './protocol';
import type { RunOutput, RunStarted, RunSummary, Status, TestResult } from './protocol';
import { readSettings, Server } from './server';
import { StatusBar } from './statusBar';
import { Testing } from './testing';

let current: Server | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('aisbx');
  const serverChannel = vscode.window.createOutputChannel('aisbx language server');
  const bar = new StatusBar(readSettings().statusBar);
  // server is made below; the closures here run only after activate.
  const client = () => server.client;

  const refreshStatus = async () => {
    const c = client();
    if (!c?.isRunning()) {
      return;
    }
    try {
      const st = await c.sendRequest(ExecuteCommandRequest.type, { command: command.status, arguments: [{}] });
      if (st) {
        bar.setStatus(st as Status);
      }
    } catch (err) {
      serverChannel.appendLine(`aisbx.status: ${String(err)}`);
    }
  };

  const testing = new Testing(client, output, () => void refreshStatus());
  const server: Server = new Server(serverChannel, {
    attach: (c: LanguageClient) => {
      c.onNotification(method.runStarted, (n: RunStarted) => testing.tracker.onRunStarted(n));
      c.onNotification(method.testResult, (r: TestResult) => testing.tracker.onTestResult(r));
      c.onNotification(method.runOutput, (o: RunOutput) => testing.tracker.onRunOutput(o));
      c.onNotification(method.runFinished, (s: RunSummary) => testing.tracker.onRunFinished(s));
      c.onNotification(method.status, (s: Status) => bar.setStatus(s));
    },
    state: (state, error) => {
      bar.setState(state, error);
      if (state === 'running') {
        void refreshStatus();
        void testing.discoverWorkspace();
      }
    },
  });

  const folderUri = (): string | undefined => {
    const doc = vscode.window.activeTextEditor?.document.uri;
    const f = (doc && vscode.workspace.getWorkspaceFolder(doc)) ?? vscode.workspace.workspaceFolders?.[0];
    return f?.uri.toString();
  };
  const requireClient = (): LanguageClient | undefined => {
    const c = client();
    if (!c?.isRunning()) {
      void vscode.window.showWarningMessage('aisbx: aisbxd is not running (aisbx: Restart daemon, or aisbx: Show log).');
      return undefined;
    }
    return c;
  };
  const runCommand = async (cmd: string, args: object) => {
    if (!requireClient()) {
      return;
    }
    try {
      await testing.execute(undefined, cmd, args);
    } catch (err) {
      void vscode.window.showErrorMessage(`aisbx: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  const register = (id: string, fn: () => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, fn));
  register('aisbx.vscode.runAffected', () => runCommand(command.runAffected, folderUri() ? { uri: folderUri() } : {}));
  register('aisbx.vscode.runFile', () => {
    const doc = vscode.window.activeTextEditor?.document;
    if (!doc || doc.uri.scheme !== 'file') {
      void vscode.window.showWarningMessage("aisbx: open a test file to run its tests.");
      return;
    }
    return runCommand(command.runFile, { uri: doc.uri.toString() });
  });
  register('aisbx.vscode.showLastRun', async () => {
    const c = requireClient();
    if (!c) {
      return;
    }
    const s = (await c.sendRequest(ExecuteCommandRequest.type, { command: command.lastRun, arguments: [{ uri: folderUri() }] })) as RunSummary | null;
    if (!s) {
      void vscode.window.showInformationMessage('aisbx: no sandbox run yet in this workspace.');
      return;
    }
    output.appendLine(formatSummary(s));
    output.show(true);
    const pick = await vscode.window.showInformationMessage(`aisbx: last run ${summaryLine(s)}`, 'Open run record');
    if (pick) {
      await vscode.commands.executeCommand('aisbx.vscode.openRunRecord');
    }
  });
  register('aisbx.vscode.openRunRecord', async () => {
    const c = requireClient();
    if (!c) {
      return;
    }
    const res = (await c.sendRequest(ExecuteCommandRequest.type, { command: command.openRunRecord, arguments: [{ uri: folderUri() }] })) as { path?: string } | null;
    if (!res?.path) {
      void vscode.window.showInformationMessage('aisbx: no run record yet in this workspace.');
      return;
    }
    await vscode.window.showTextDocument(vscode.Uri.file(res.path), { preview: true });
  });
  register('aisbx.vscode.restartDaemon', async () => {
    await server.restartDaemon();
  });
  register('aisbx.vscode.showLog', async () => {
    serverChannel.show(true);
    const log = daemonLogPath(process.env, os.homedir());
    if (fs.existsSync(log)) {
      await vscode.window.showTextDocument(vscode.Uri.file(log), { preview: true });
    } else {
      serverChannel.appendLine(`no daemon log at ${log} (the daemon has not run, or runs with another AISBX_CACHE_DIR)`);
    }
  });
  register('aisbx.vscode.installHelp', () =>
    vscode.commands.executeCommand('markdown.showPreview', vscode.Uri.joinPath(context.extensionUri, 'README.md')),
  );

  context.subscriptions.push(
    output,
    serverChannel,
    bar,
    testing,
    server,
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration('aisbx.statusBar.enabled')) {
        bar.setEnabled(readSettings().statusBar);
      }
      if (e.affectsConfiguration('aisbx.path') || e.affectsConfiguration('aisbx.standalone') || e.affectsConfiguration('aisbx.logLevel')) {
        await server.stop();
        await server.start();
      }
    }),
  );
  current = server;
  await server.start();
}

/** Stops the client and waits for it, so that aisbxd sees shutdown and exit. */
export function deactivate(): Promise<void> | undefined {
  return current?.stop();
}
