// aisbx reporter for vitest: one JSON line per test event on stdout, in the
// "@aisbx:" protocol of the pytest plugin. It uses the task-update hooks of
// vitest 1 to 3.
//
// Use: vitest run --reporter=default --reporter=./aisbx-vitest-reporter.mjs
import fs from 'node:fs';
import { line, failureInfo, inWorkspace } from './aisbx-reporter-common.mjs';

function emit(ev) {
  process.stdout.write(line(ev));
}

function failure(errors) {
  const err = (errors && errors[0]) || {};
  const info = failureInfo(err.message || err.name, err.stack || err.message);
  // vitest parses stacks itself (stacks: [{file, line, column}]).
  const parsed = (err.stacks || []).filter((s) => s.file && inWorkspace(s.file)).map((s) => ({ file: s.file, line: s.line, col: s.column }));
  if (parsed.length) {
    info.frames = parsed.slice(0, 10);
    info.loc = parsed[0];
  }
  return info;
}

function names(task) {
  const out = [];
  for (let t = task; t && t.type !== undefined && t.filepath === undefined; t = t.suite) {
    if (t.name) out.unshift(t.name);
  }
  return out;
}

function fileOf(task) {
  return (task.file && task.file.filepath) || '';
}

const STATUS = { pass: 'passed', fail: 'failed', skip: 'skipped', todo: 'skipped' };

// A test file that failed to import a module: find the line that names it.
function importLine(file, info) {
  const m = /Failed to load url (\S+)/.exec(info.message || '') || /Cannot find module '([^']+)'/.exec(info.message || '');
  if (!m || !file) return info;
  try {
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const i = lines.findIndex((l) => l.includes(m[1]));
    if (i >= 0) info.loc = { file, line: i + 1, col: lines[i].indexOf(m[1]) + 1 };
  } catch {
    // unreadable: no location
  }
  return info;
}

export default class AisbxVitestReporter {
  onInit(ctx) {
    this.ctx = ctx;
    this.started = new Set();
    this.ended = new Set();
  }

  onCollected(files) {
    let total = 0;
    const count = (t) => {
      if (t.type === 'test' || t.type === 'custom') total++;
      for (const c of t.tasks || []) count(c);
    };
    for (const f of files || []) count(f);
    emit({ e: 'run', add: total });
  }

  onTaskUpdate(packs) {
    for (const [id, result] of packs || []) {
      const task = this.ctx && this.ctx.state && this.ctx.state.idMap.get(id);
      if (!task) continue;
      this.update(task, result || task.result);
    }
  }

  onFinished(files, errors) {
    const walk = (t) => {
      if (t.type === 'test' || t.type === 'custom') this.update(t, t.result);
      for (const c of t.tasks || []) walk(c);
      if (t.filepath !== undefined && t.result && t.result.state === 'fail' && t.result.errors && !(t.tasks || []).length && !this.ended.has(t.id)) {
        this.ended.add(t.id);
        emit({ e: 'error', id: t.id, name: t.filepath, file: t.filepath, ...importLine(t.filepath, failure(t.result.errors)) });
      }
    };
    for (const f of files || []) walk(f);
    for (const err of errors || []) emit({ e: 'error', id: 'unhandled', name: 'unhandled error', file: '', ...failure([err]) });
    emit({ e: 'done' });
  }

  update(task, result) {
    if (task.type !== 'test' && task.type !== 'custom') {
      if (task.type === 'suite' && task.filepath === undefined && result && result.state === 'fail' && result.errors && result.errors.length && !this.ended.has(task.id)) {
        this.ended.add(task.id);
        emit({ e: 'error', id: task.id, name: names(task).join(' > '), file: fileOf(task), ...failure(result.errors) });
      }
      return;
    }
    const n = names(task);
    const pattern = this.ctx && this.ctx.config && this.ctx.config.testNamePattern;
    // Tests left out by -t are reported as skipped; they did not run.
    if (pattern && task.mode === 'skip' && !new RegExp(pattern).test(n.join(' '))) return;
    const base = { id: task.id, name: n.join(' > '), path: n, file: fileOf(task) };
    const state = (result && result.state) || task.mode;
    if ((state === 'run' || state === 'queued') && !this.started.has(task.id)) {
      this.started.add(task.id);
      emit({ e: 'start', ...base });
      return;
    }
    const status = STATUS[state] || (task.mode === 'skip' || task.mode === 'todo' ? 'skipped' : undefined);
    if (!status || this.ended.has(task.id)) return;
    this.ended.add(task.id);
    const ev = { e: 'end', ...base, status, ms: (result && result.duration) || 0 };
    if (task.location) ev.line = task.location.line;
    if (task.mode === 'todo' || state === 'todo') ev.message = 'todo';
    if (status === 'failed') Object.assign(ev, failure(result.errors));
    emit(ev);
  }
}
