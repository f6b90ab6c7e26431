import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as vscode from 'vscode';
import type { RunOutput, RunStarted, RunSummary, TestResult } from '../../src/protocol';
import { summaryLine } from '../../src/format';
import { RunTracker } from '../../src/runTracker';
import type { RunSink } from '../../src/runTracker';
import { TestTree } from '../../src/testTree';

const discovery = JSON.parse(readFileSync('test/testdata/discovery.json', 'utf8'));
const transcript: { notifications: { method: string; params: unknown }[]; calls: string[] } = JSON.parse(
  readFileSync('test/testdata/run-transcript.json', 'utf8'),
);

/** A TestRun that writes down what it was told, one line a call. */
class Recorder implements RunSink {
  readonly calls: string[] = [];
  enqueued(t: vscode.TestItem) {
    this.calls.push(`enqueued ${t.id}`);
  }
  started(t: vscode.TestItem) {
    this.calls.push(`started ${t.id}`);
  }
  passed(t: vscode.TestItem, d?: number) {
    this.calls.push(`passed ${t.id} ${d}ms`);
  }
  failed(t: vscode.TestItem, m: vscode.TestMessage | readonly vscode.TestMessage[], d?: number) {
    this.calls.push(`failed ${t.id} ${describe(m)} ${d}ms`);
  }
  errored(t: vscode.TestItem, m: vscode.TestMessage | readonly vscode.TestMessage[], d?: number) {
    this.calls.push(`errored ${t.id} ${describe(m)}${d === undefined ? '' : ` ${d}ms`}`);
  }
  skipped(t: vscode.TestItem) {
    this.calls.push(`skipped ${t.id}`);
  }
  appendOutput(s: string) {
    this.calls.push(`output ${s}`);
  }
  end() {
    this.calls.push('end');
  }
}

function describe(m: vscode.TestMessage | readonly vscode.TestMessage[]): string {
  const one = Array.isArray(m) ? m[0] : (m as vscode.TestMessage);
  const loc = one.location ? ` @ ${one.location.uri.toString()}:${one.location.range.start.line}:${one.location.range.start.character}` : '';
  return `${String(one.message)}${loc}`;
}

function setup() {
  const ctrl = vscode.tests.createTestController('t', 't');
  const tree = new TestTree(ctrl);
  tree.replace(discovery.folder, true, discovery.tests);
  const created: { started: RunStarted; items: string[]; rec: Recorder }[] = [];
  const lines: string[] = [];
  const finished: string[] = [];
  const tracker = new RunTracker(tree, {
    newRun: (started, items) => {
      const rec = new Recorder();
      created.push({ started, items: items.map((i) => i.id), rec });
      return rec;
    },
    output: (t) => lines.push(t),
    finished: (s) => finished.push(s.id),
  });
  const feed = (n: { method: string; params: unknown }) => {
    switch (n.method) {
      case 'aisbx/runStarted':
        return tracker.onRunStarted(n.params as RunStarted);
      case 'aisbx/testResult':
        return tracker.onTestResult(n.params as TestResult);
      case 'aisbx/runOutput':
        return tracker.onRunOutput(n.params as RunOutput);
      case 'aisbx/runFinished':
        return tracker.onRunFinished(n.params as RunSummary);
      default:
        throw new Error(`unknown method ${n.method}`);
    }
  };
  return { tree, tracker, created, lines, finished, feed };
}

test('a run started elsewhere (code action, lens) gets its own TestRun', () => {
  const { tree, created, lines, finished, feed } = setup();
  transcript.notifications.forEach(feed);
  assert.equal(created.length, 1);
  assert.deepEqual(created[0].items, ['go:./calc:TestAdd', 'go:./calc:TestSub']);
  assert.equal(created[0].started.title, 'Running 2 tests in sandbox');
  assert.deepEqual(created[0].rec.calls, transcript.calls);
  assert.equal(tree.get('go:./calc:TestAdd/zero')?.parent?.id, 'go:./calc:TestAdd');
  assert.deepEqual(finished, ['r1']);
  assert.ok(lines.includes('=== RUN   TestAdd'), 'test output reaches the output channel');
  assert.ok(lines.some((l) => l.startsWith('✗ run r1 in /w: 2 failed, 1 passed')), lines.join('\n'));
});

test('a Testing-view run claims the run, and the TestRun stays open for the caller', () => {
  const { tracker, created, finished, feed } = setup();
  const rec = new Recorder();
  const claim = tracker.expect(rec);
  transcript.notifications.forEach(feed);
  assert.equal(created.length, 0, 'no second TestRun');
  assert.deepEqual(rec.calls, transcript.calls.filter((c) => c !== 'end'));
  // The command's answer repeats the summary: nothing is applied twice.
  claim.finish(transcript.notifications.at(-1)!.params as RunSummary);
  assert.deepEqual(rec.calls, transcript.calls.filter((c) => c !== 'end'));
  assert.deepEqual(finished, ['r1']);
});

test('without notifications the answer alone fills in the results', () => {
  const { tracker } = setup();
  const rec = new Recorder();
  const claim = tracker.expect(rec);
  const summary = transcript.notifications.at(-1)!.params as RunSummary;
  claim.finish(summary);
  assert.deepEqual(rec.calls, [
    'failed go:./calc:TestAdd subtest failed 3ms',
    'failed go:./calc:TestAdd/zero calc_test.go:12: got 1, want 0 2ms',
    'passed go:./calc:TestSub 1ms',
    'output \r\n2 failed, 1 passed in 0.5 s\r\n',
  ]);
});

test('a limit cuts a test off: it is errored with the reason', () => {
  const { tracker, feed } = setup();
  const rec = new Recorder();
  tracker.expect(rec);
  feed({ method: 'aisbx/runStarted', params: { runId: 'r9', title: 't', root: '/w', tests: ['go:./calc:TestSub'] } });
  feed({ method: 'aisbx/testResult', params: { runId: 'r9', id: 'go:./calc:TestSub', name: 'TestSub', status: 'started', durationMs: 0 } });
  feed({
    method: 'aisbx/runFinished',
    params: { id: 'r9', root: '/w', status: 'timeout', reason: 'run exceeded 30s', passed: 0, failed: 0, skipped: 0, total: 1, durationMs: 30000, tests: [] },
  });
  assert.deepEqual(rec.calls, [
    'enqueued go:./calc:TestSub',
    'started go:./calc:TestSub',
    'errored go:./calc:TestSub 0 passed in 30.0 s: run exceeded 30s',
    'output \r\n0 passed in 30.0 s: run exceeded 30s\r\n',
  ]);
});

test('results of unknown runs and after the end are dropped', () => {
  const { tracker, feed } = setup();
  const rec = new Recorder();
  const claim = tracker.expect(rec);
  claim.abort('run cancelled');
  feed({ method: 'aisbx/testResult', params: { runId: 'nope', id: 'go:./calc:TestSub', name: 'TestSub', status: 'passed', durationMs: 1 } });
  assert.deepEqual(rec.calls, ['output aisbx: run cancelled\r\n']);
});

// A run recorded from the real aisbxd (see the file's comment): the tracker
// and the tree must make sense of exactly what the server sends.
const real: {
  discovery: { tests: import('../../src/protocol').DiscoveredTest[] };
  notifications: { method: string; params: unknown }[];
  answer: RunSummary & { message?: string };
} = JSON.parse(readFileSync('test/testdata/real-run.json', 'utf8'));

test('a real aisbxd run: discovery, notifications and answer', () => {
  const ctrl = vscode.tests.createTestController('t', 't');
  const tree = new TestTree(ctrl);
  tree.replace('file:///tmp/cap/ws', true, real.discovery.tests);
  const file = real.discovery.tests.find((t) => t.kind === 'file')!;
  assert.deepEqual(
    tree.get(file.id) && [...(ctrl.items.get(file.id)!.children as unknown as { ids(): string[] }).ids()].sort(),
    real.discovery.tests.filter((t) => t.parent === file.id).map((t) => t.id).sort(),
  );
  const runs: Recorder[] = [];
  const lines: string[] = [];
  const tracker = new RunTracker(tree, {
    newRun: () => {
      const r = new Recorder();
      runs.push(r);
      return r;
    },
    output: (t) => lines.push(t),
  });
  for (const n of real.notifications) {
    switch (n.method) {
      case 'aisbx/runStarted':
        tracker.onRunStarted(n.params as RunStarted);
        break;
      case 'aisbx/testResult':
        tracker.onTestResult(n.params as TestResult);
        break;
      case 'aisbx/runOutput':
        tracker.onRunOutput(n.params as RunOutput);
        break;
      case 'aisbx/runFinished':
        tracker.onRunFinished(n.params as RunSummary);
        break;
    }
  }
  tracker.onRunFinished(real.answer);
  assert.equal(runs.length, 1, 'one TestRun for the run');
  const calls = runs[0].calls.filter((c) => !c.startsWith('output '));
  const failed = real.answer.tests!.find((t) => t.status === 'failed')!;
  const passed = real.answer.tests!.find((t) => t.status === 'passed')!;
  const loc = failed.location!;
  assert.deepEqual(calls, [
    `started ${failed.id}`,
    `failed ${failed.id} ${failed.message} @ ${loc.uri}:${loc.range.start.line}:${loc.range.start.character} ${failed.durationMs}ms`,
    `started ${passed.id}`,
    `passed ${passed.id} ${passed.durationMs}ms`,
    'end',
  ]);
  // Without the server's `message`, the extension words a run exactly as the server does.
  assert.ok(real.answer.message);
  assert.equal(summaryLine({ ...real.answer, message: undefined }), real.answer.message);
  assert.equal(lines.filter((l) => l.startsWith('✗ run ')).length, 1, 'the summary is reported once');
});
