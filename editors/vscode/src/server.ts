// The language client's lifecycle: find aisbxd, start `aisbxd serve` over
// stdio, stop it, restart it (and the shared daemon behind it).
import { execFile } from 'node:child_process';
import * as os from 'node:os';
import * as vscode from 'vscode';
import { LanguageClient, State, TransportKind } from 'vscode-languageclient/node';
import type { LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node';
import { findBinary, serveArgs, stoppedPid } from './binary';
import type { FindResult } from './binary';
import type { DaemonState } from './format';

export interface Settings {
  path: string;
  standalone: boolean;
  logLevel: string;
  statusBar: boolean;
}

export function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration('aisbx');
  return {
    path: c.get<string>('path', ''),
    standalone: c.get<boolean>('standalone', false),
    logLevel: c.get<string>('logLevel', 'info'),
    statusBar: c.get<boolean>('statusBar.enabled', true),
  };
}

export function locate(settings: Settings): FindResult {
  return findBinary({ configured: settings.path, pathEnv: process.env.PATH, home: os.homedir() });
}

export interface ServerEvents {
  /** Registers notification handlers on a new client, before it starts. */
  attach(client: LanguageClient): void;
  state(state: DaemonState, error?: string): void;
}

/** The documents aisbx checks: every file on disk (secrets hide anywhere). */
export const documentSelector = [{ scheme: 'file' }];

export class Server implements vscode.Disposable {
  client: LanguageClient | undefined;
  binary: string | undefined;
  private settings: Settings = readSettings();

  constructor(
    readonly channel: vscode.OutputChannel,
    private readonly events: ServerEvents,
  ) {}

  /** Starts the client; a missing binary is reported, not thrown. */
  async start(): Promise<boolean> {
    this.settings = readSettings();
    const found = locate(this.settings);
    if (!found.ok) {
      this.binary = undefined;
      this.events.state('stopped', found.message);
      void reportMissing(found);
      return false;
    }
    this.binary = found.path;
    const serverOptions: ServerOptions = {
      command: found.path,
      args: serveArgs(this.settings),
      transport: TransportKind.stdio,
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector,
      outputChannel: this.channel,
      diagnosticCollectionName: 'aisbx',
    };
    const client = new LanguageClient('aisbx', 'aisbx', serverOptions, clientOptions);
    client.onDidChangeState((e) => {
      if (e.newState === State.Running) {
        this.events.state('running');
      } else if (e.newState === State.Starting) {
        this.events.state('starting');
      } else {
        this.events.state('stopped');
      }
    });
    this.events.attach(client);
    this.client = client;
    this.channel.appendLine(`starting ${found.path} ${serveArgs(this.settings).join(' ')} (found via ${found.source})`);
    try {
      await client.start();
      return true;
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      this.events.state('stopped', `aisbxd did not start: ${msg}`);
      void vscode.window.showErrorMessage(`aisbx: aisbxd did not start: ${msg}`, 'Show log').then((pick) => {
        if (pick) {
          this.channel.show();
        }
      });
      return false;
    }
  }

  async stop(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    if (c) {
      try {
        await c.stop(5000);
      } catch (err) {
        this.channel.appendLine(`stopping the client: ${String(err)}`);
      }
    }
  }

  /**
   * Stops the client, asks the shared daemon to exit (`aisbxd daemon
   * --stop`), and starts again: the next `serve` starts a fresh daemon.
   */
  async restartDaemon(): Promise<void> {
    await this.stop();
    let bin = this.binary;
    if (!bin) {
      const found = locate(this.settings);
      bin = found.ok ? found.path : undefined;
    }
    if (bin && !this.settings.standalone) {
      const out = await run(bin, ['daemon', '--stop']);
      this.channel.appendLine(`aisbxd daemon --stop: ${out.trim() || 'done'}`);
      // --stop only asks. Until the old daemon has exited it holds the
      // daemon lock, and a daemon that `serve` starts meanwhile gives up.
      const pid = stoppedPid(out);
      if (pid !== undefined && !(await processGone(pid, 15_000))) {
        this.channel.appendLine(`daemon pid ${pid} did not exit within 15 s; starting anyway`);
      }
    }
    await this.start();
  }

  dispose(): void {
    void this.stop();
  }
}

/** Polls until process pid has exited. */
async function processGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch (err) {
      // EPERM: it exists but is not ours, so it is not our daemon either.
      return (err as NodeJS.ErrnoException).code === 'ESRCH';
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

function run(cmd: string, args: string[]): Promise<string> {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: 10_000 }, (err, stdout, stderr) => {
      // status exits 1 when no daemon runs, with its JSON on stdout.
      resolve(stdout || (err ? `${stderr || err.message}` : ''));
    });
  });
}

async function reportMissing(found: Extract<FindResult, { ok: false }>): Promise<void> {
  const pick = await vscode.window.showErrorMessage(
    `aisbx: ${found.message} Install it (make install in the aisbx repo) or set aisbx.path.`,
    'Open settings',
    'Show install instructions',
  );
  if (pick === 'Open settings') {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'aisbx.path');
  } else if (pick === 'Show install instructions') {
    await vscode.commands.executeCommand('aisbx.vscode.installHelp');
  }
}
