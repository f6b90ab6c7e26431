// The status bar item: daemon state, sandbox pool warm or cold, last run.
import * as vscode from 'vscode';
import { statusView } from './format';
import type { DaemonState } from './format';
import type { Status } from './protocol';

export class StatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private state: DaemonState = 'starting';
  private status: Status | undefined;
  private error: string | undefined;

  constructor(private enabled: boolean) {
    this.item = vscode.window.createStatusBarItem('aisbx.status', vscode.StatusBarAlignment.Left, 10);
    this.item.name = 'aisbx';
    this.item.command = 'aisbx.vscode.showLastRun';
    this.render();
  }

  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    this.render();
  }

  setState(state: DaemonState, error?: string): void {
    this.state = state;
    this.error = error;
    if (state !== 'running') {
      this.status = undefined;
    }
    this.render();
  }

  setStatus(status: Status): void {
    this.status = status;
    this.render();
  }

  private render(): void {
    const roots = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const v = statusView({ state: this.state, status: this.status, roots, error: this.error });
    this.item.text = v.text;
    this.item.tooltip = v.tooltip;
    this.item.backgroundColor = v.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    if (this.enabled) {
      this.item.show();
    } else {
      this.item.hide();
    }
  }

  dispose(): void {
    this.item.dispose();
  }
}
