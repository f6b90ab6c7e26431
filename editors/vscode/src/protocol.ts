// The wire types of aisbx's custom LSP surface, as docs/lsp.md specifies
// them. Only this file knows their shape; everything else imports from here.

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export interface Location {
  uri: string;
  range: Range;
}

/** One test, as `aisbx/discoverTests` returns it. */
export interface DiscoveredTest {
  id: string;
  label: string;
  uri: string;
  range?: Range;
  kind: 'file' | 'suite' | 'function' | 'subtest';
  parent?: string;
}

export interface DiscoverTestsResult {
  tests: DiscoveredTest[] | null;
}

export type TestStatus = 'passed' | 'failed' | 'skipped' | 'started';

/** `aisbx/testResult`. */
export interface TestResult {
  runId: string;
  id: string;
  name: string;
  status: TestStatus;
  durationMs?: number;
  message?: string;
  location?: Location;
}

/** `aisbx/runStarted`. */
export interface RunStarted {
  runId: string;
  title: string;
  root: string;
  tests: string[] | null;
}

/** `aisbx/runOutput`. */
export interface RunOutput {
  runId: string;
  stream: 'stdout' | 'stderr';
  text: string;
}

export type RunStatus =
  | 'passed'
  | 'failed'
  | 'timeout'
  | 'oom'
  | 'pids-limit'
  | 'output-limit'
  | 'disk-full'
  | 'engine-error'
  | 'cancelled'
  | 'no-tests';

export interface SummaryTest {
  id: string;
  name: string;
  status: string;
  durationMs: number;
  message?: string;
  location?: Location;
}

/** The result of every run command, and `aisbx/runFinished`. */
export interface RunSummary {
  id: string;
  root: string;
  status: RunStatus;
  reason?: string;
  passed: number;
  failed: number;
  skipped: number;
  total: number;
  durationMs: number;
  image?: { ref: string; digest: string };
  record?: string;
  /** The one-line summary, as the server's window/showMessage says it. */
  message?: string;
  selection?: { mode: string; explanation: string[] | null };
  tests: SummaryTest[] | null;
}

export interface Pool {
  profile: string;
  warm: number;
  size: number;
}

export interface WorkspaceStatus {
  root: string;
  pools: Pool[] | null;
  lastRun?: RunSummary | null;
}

/** `aisbx.status` and `aisbx/status`. */
export interface Status {
  daemon: { pid: number; version: string; uptimeMs: number; shared: boolean };
  engine: { reachable: boolean; apiVersion?: string; error?: string };
  workspaces: WorkspaceStatus[] | null;
}

export const method = {
  discoverTests: 'aisbx/discoverTests',
  runStarted: 'aisbx/runStarted',
  testResult: 'aisbx/testResult',
  runOutput: 'aisbx/runOutput',
  runFinished: 'aisbx/runFinished',
  status: 'aisbx/status',
} as const;

/** The server's workspace/executeCommand commands. */
export const command = {
  runAffected: 'aisbx.runAffected',
  runTest: 'aisbx.runTest',
  runFile: 'aisbx.runFile',
  rerunFailed: 'aisbx.rerunFailed',
  lastRun: 'aisbx.lastRun',
  openRunRecord: 'aisbx.openRunRecord',
  status: 'aisbx.status',
} as const;

/** The server command that runs one Testing-view item: a file's tests, or one test by id. */
export function commandFor(kind: string | undefined, id: string, uri: string): { command: string; args: object } {
  if (kind === 'file') {
    return { command: command.runFile, args: { uri } };
  }
  return { command: command.runTest, args: { uri, test: id } };
}
