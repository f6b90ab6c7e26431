// Maps aisbx's run notifications and RunSummaries onto VS Code TestRuns.
// Runs started from the Testing view claim the next aisbx/runStarted; runs
// started any other way (a code action, a lens, another command) get a
// TestRun of their own, so every run shows up in the Testing view.
import * as vscode from 'vscode';
import { formatSummary, summaryLine } from './format';
import type { RunOutput, RunStarted, RunSummary, SummaryTest, TestResult } from './protocol';
import { toRange } from './testTree';

/** The part of vscode.TestRun the tracker drives. */
export type RunSink = Pick<
  vscode.TestRun,
  'enqueued' | 'started' | 'passed' | 'failed' | 'errored' | 'skipped' | 'appendOutput' | 'end'
>;

export interface ItemSource {
  resolve(id: string, name: string, location?: TestResult['location']): vscode.TestItem | undefined;
  get(id: string): vscode.TestItem | undefined;
}

export interface TrackerHooks {
  /** A TestRun for a run nobody claimed; undefined to ignore the run. */
  newRun(started: RunStarted, items: vscode.TestItem[]): RunSink | undefined;
  /** Everything worth reading goes here too (the "aisbx" output channel). */
  output(text: string): void;
  /** Called once per finished run. */
  finished?(summary: RunSummary): void;
}

/** Terminal output in a TestRun needs CRLF. */
export function crlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

export function testMessage(text: string, location?: TestResult['location']): vscode.TestMessage {
  const m = new vscode.TestMessage(text);
  if (location) {
    m.location = new vscode.Location(vscode.Uri.parse(location.uri), toRange(location.range));
  }
  return m;
}

type Final = 'passed' | 'failed' | 'skipped' | 'errored';

class Active {
  readonly final = new Map<string, Final>();
  readonly started = new Set<string>();
  done = false;
  constructor(
    readonly sink: RunSink,
    /** Whether the tracker ends the TestRun (it does for runs it created). */
    readonly owned: boolean,
  ) {}
}

/** What a Testing-view run holds while its command is in flight. */
export interface Claim {
  /** The command answered with a summary. Safe to call after aisbx/runFinished. */
  finish(summary: RunSummary | null | undefined): void;
  /** The command failed or was cancelled. */
  abort(reason: string): void;
}

export class RunTracker {
  private readonly waiting: Active[] = [];
  private readonly runs = new Map<string, Active>();
  /** Recently reported run ids: a summary arrives both as aisbx/runFinished and as the command's answer. */
  private readonly reported: string[] = [];

  constructor(
    private readonly items: ItemSource,
    private readonly hooks: TrackerHooks,
  ) {}

  /** Registers a Testing-view run before its command is sent. */
  expect(sink: RunSink): Claim {
    const a = new Active(sink, false);
    this.waiting.push(a);
    const unwait = () => {
      const i = this.waiting.indexOf(a);
      if (i >= 0) {
        this.waiting.splice(i, 1);
      }
    };
    return {
      finish: (summary) => {
        unwait();
        if (summary) {
          this.finishRun(a, summary);
        } else {
          a.done = true;
        }
      },
      abort: (reason) => {
        unwait();
        if (!a.done) {
          a.done = true;
          a.sink.appendOutput(crlf(`aisbx: ${reason}\n`));
          this.hooks.output(`aisbx: ${reason}`);
        }
      },
    };
  }

  onRunStarted(n: RunStarted): void {
    let a = this.waiting.shift();
    const items = (n.tests ?? []).map((id) => this.items.get(id)).filter((i): i is vscode.TestItem => !!i);
    if (!a) {
      const sink = this.hooks.newRun(n, items);
      if (!sink) {
        return;
      }
      a = new Active(sink, true);
    }
    this.runs.set(n.runId, a);
    for (const item of items) {
      a.sink.enqueued(item);
    }
    this.hooks.output(`▶ ${n.title}`);
  }

  onTestResult(r: TestResult): void {
    const a = this.runs.get(r.runId);
    if (!a || a.done) {
      return;
    }
    this.apply(a, r.id, r.name, r.status, r.durationMs, r.message, r.location);
  }

  onRunOutput(o: RunOutput): void {
    this.hooks.output(o.text.replace(/\r?\n$/, ''));
    const a = this.runs.get(o.runId);
    if (a && !a.done) {
      a.sink.appendOutput(crlf(o.text));
    }
  }

  onRunFinished(s: RunSummary): void {
    const a = this.runs.get(s.id);
    if (a) {
      this.finishRun(a, s);
    } else {
      this.report(s);
    }
  }

  private report(s: RunSummary): void {
    if (this.reported.includes(s.id)) {
      return;
    }
    this.reported.push(s.id);
    if (this.reported.length > 64) {
      this.reported.shift();
    }
    this.hooks.output(formatSummary(s));
    this.hooks.finished?.(s);
  }

  private finishRun(a: Active, s: RunSummary): void {
    if (a.done) {
      return;
    }
    a.done = true;
    this.runs.delete(s.id);
    // The summary is the truth: it fills in whatever notifications missed.
    for (const t of s.tests ?? []) {
      if (!a.final.has(t.id)) {
        this.apply(a, t.id, t.name, summaryStatus(t), t.durationMs, t.message, t.location);
      }
    }
    // Tests that started but never finished were cut off by a limit.
    for (const id of a.started) {
      if (!a.final.has(id)) {
        const item = this.items.get(id);
        if (item) {
          a.sink.errored(item, testMessage(summaryLine(s)));
        }
      }
    }
    a.sink.appendOutput(crlf(`\n${summaryLine(s)}\n`));
    this.report(s);
    if (a.owned) {
      a.sink.end();
    }
  }

  private apply(
    a: Active,
    id: string,
    name: string,
    status: string,
    durationMs: number | undefined,
    message: string | undefined,
    location: TestResult['location'],
  ): void {
    const item = this.items.resolve(id, name, location);
    if (!item) {
      return;
    }
    switch (status) {
      case 'started':
        a.started.add(id);
        a.sink.started(item);
        return;
      case 'passed':
        a.sink.passed(item, durationMs);
        a.final.set(id, 'passed');
        return;
      case 'failed':
        a.sink.failed(item, testMessage(message ?? `${name} failed`, location), durationMs);
        a.final.set(id, 'failed');
        return;
      case 'skipped':
        a.sink.skipped(item);
        a.final.set(id, 'skipped');
        return;
      default:
        a.sink.errored(item, testMessage(message ?? `${name}: ${status}`, location), durationMs);
        a.final.set(id, 'errored');
    }
  }
}

/** A summary test's status; limit statuses (timeout, oom…) become errors. */
function summaryStatus(t: SummaryTest): string {
  return ['passed', 'failed', 'skipped'].includes(t.status) ? t.status : `errored (${t.status})`;
}
