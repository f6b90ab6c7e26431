// Text shown to the user: run summaries and the status bar item. Pure, so
// that the unit tests check the exact strings.
import type { RunSummary, Status, WorkspaceStatus } from './protocol';

const limitLabels: Record<string, string> = {
  timeout: 'timed out',
  oom: 'out of memory',
  'pids-limit': 'process limit hit',
  'output-limit': 'output limit hit',
  'disk-full': 'disk full',
  'engine-error': 'engine error',
  cancelled: 'cancelled',
  'no-tests': 'no tests',
};

/** Like aisbxd: one decimal under a minute, else Go's rounded duration ("1m5s"). */
export function seconds(ms: number): string {
  if (ms < 60_000) {
    return `${(ms / 1000).toFixed(1)} s`;
  }
  let rest = Math.round(ms / 1000);
  const h = Math.floor(rest / 3600);
  rest -= h * 3600;
  const m = Math.floor(rest / 60);
  const sec = rest - m * 60;
  return `${h > 0 ? `${h}h` : ''}${m}m${sec}s`;
}

/** `go@sha256:0123456789ab…` from an image ref and digest, as aisbxd labels it. */
export function shortImage(image: { ref: string; digest: string }): string {
  if (!image.digest) {
    return image.ref;
  }
  const profile = image.ref.replace(/^aisbx\//, '').replace(/:.*$/, '');
  const d = image.digest.length > 19 ? `${image.digest.slice(0, 19)}…` : image.digest;
  return `${profile}@${d}`;
}

/**
 * One line: `3 failed, 37 passed in 2.1 s (sandbox go@sha256:…)`. aisbxd
 * sends it as the summary's `message`; the same wording is rebuilt when an
 * older server does not.
 */
export function summaryLine(s: RunSummary): string {
  if (s.message) {
    return s.message.replace(/^aisbx: /, '');
  }
  if (s.status === 'no-tests') {
    return s.reason || 'no tests';
  }
  let what: string = s.status;
  if (s.total > 0) {
    const parts: string[] = [];
    if (s.failed > 0) {
      parts.push(`${s.failed} failed`);
    }
    parts.push(`${s.passed} passed`);
    if (s.skipped > 0) {
      parts.push(`${s.skipped} skipped`);
    }
    what = parts.join(', ');
  }
  let line = `${what} in ${seconds(s.durationMs)}`;
  if (s.image?.ref) {
    line += ` (sandbox ${shortImage(s.image)})`;
  }
  if (s.status !== 'passed' && s.status !== 'failed' && s.reason) {
    line += `: ${s.reason}`;
  }
  return line;
}

/** Whether a run counts as green: passed, or nothing to run. */
export function isGreen(s: RunSummary): boolean {
  return s.status === 'passed' || s.status === 'no-tests';
}

/** The run, as the output channel shows it. */
export function formatSummary(s: RunSummary): string {
  const mark = isGreen(s) ? '✓' : '✗';
  const lines = [`${mark} run ${s.id} in ${s.root}: ${summaryLine(s)}`];
  if (s.selection) {
    lines.push(`  selection: ${s.selection.mode}`);
    for (const e of s.selection.explanation ?? []) {
      lines.push(`    ${e}`);
    }
  }
  for (const t of s.tests ?? []) {
    if (t.status !== 'failed') {
      continue;
    }
    let where = '';
    if (t.location) {
      where = ` (${fileName(t.location.uri)}:${t.location.range.start.line + 1})`;
    }
    const first = (t.message ?? '').split('\n')[0];
    lines.push(`  ✗ ${t.name}${where}${first ? `: ${first}` : ''}`);
  }
  if (s.record) {
    lines.push(`  record: ${s.record}`);
  }
  return lines.join('\n');
}

function fileName(uri: string): string {
  const i = uri.lastIndexOf('/');
  return decodeURIComponent(i >= 0 ? uri.slice(i + 1) : uri);
}

export type DaemonState = 'starting' | 'running' | 'stopped';

export interface StatusInput {
  state: DaemonState;
  status?: Status;
  /** This window's workspace folders (paths); others' workspaces are ignored. */
  roots: string[];
  /** Set when the server could not be started. */
  error?: string;
}

export interface StatusView {
  text: string;
  tooltip: string;
  warning: boolean;
}

function within(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith('/') ? parent : `${parent}/`);
}

/** The daemon's workspaces that belong to this window (all when none match). */
export function ownWorkspaces(status: Status, roots: string[]): WorkspaceStatus[] {
  const all = status.workspaces ?? [];
  const own = all.filter((w) => roots.some((r) => within(w.root, r) || within(r, w.root)));
  return own.length > 0 ? own : all;
}

/** The status bar item: daemon state, pool warm or cold, last run ✓ or ✗. */
export function statusView(input: StatusInput): StatusView {
  if (input.error) {
    return { text: '$(error) aisbx', tooltip: `aisbx: ${input.error}`, warning: true };
  }
  if (input.state === 'starting') {
    return { text: '$(sync~spin) aisbx: starting', tooltip: 'aisbx: starting aisbxd', warning: false };
  }
  if (input.state === 'stopped') {
    return { text: '$(debug-disconnect) aisbx: stopped', tooltip: 'aisbx: aisbxd is not running (aisbx: Restart daemon)', warning: true };
  }
  const st = input.status;
  if (!st) {
    return { text: '$(beaker) aisbx', tooltip: 'aisbx: running', warning: false };
  }
  const tips = [`aisbxd ${st.daemon.version}, pid ${st.daemon.pid}${st.daemon.shared ? ', shared daemon' : ', standalone'}`];
  const parts: string[] = [];
  let warning = false;
  const own = ownWorkspaces(st, input.roots);
  if (!st.engine.reachable) {
    parts.push('no engine');
    warning = true;
    tips.push(`Docker engine not reachable${st.engine.error ? `: ${st.engine.error}` : ''}; sandboxed runs are off`);
  } else {
    let warm = 0;
    let size = 0;
    for (const w of own) {
      for (const p of w.pools ?? []) {
        warm += p.warm;
        size += p.size;
        tips.push(`pool ${p.profile}: ${p.warm}/${p.size} warm (${w.root})`);
      }
    }
    parts.push(warm > 0 ? 'warm' : 'cold');
    if (size === 0) {
      tips.push('sandbox pool: cold (no container started yet)');
    }
    tips.push(`Docker engine reachable${st.engine.apiVersion ? `, API ${st.engine.apiVersion}` : ''}`);
  }
  const last = own.map((w) => w.lastRun).find((r): r is RunSummary => !!r);
  if (last) {
    if (isGreen(last)) {
      parts.push(`✓ ${last.passed}`);
    } else {
      parts.push(last.failed > 0 ? `✗ ${last.failed} failed` : `✗ ${limitLabels[last.status] ?? last.status}`);
    }
    tips.push(`last run: ${summaryLine(last)}`);
  }
  return { text: `$(beaker) aisbx: ${parts.join(' · ')}`, tooltip: tips.join('\n'), warning };
}
