// aisbx reporter for node --test: one JSON line per test event, in the
// "@aisbx:" protocol of the pytest plugin. node:test reporters are async
// generators over the runner's events.
//
// Use: node --test --test-reporter=./aisbx-node-reporter.mjs --test-reporter-destination=stdout
import path from 'node:path';
import { clip, line as frame, failureInfo, frames, inWorkspace } from './aisbx-reporter-common.mjs';

const NAME_PATTERN_SKIP = 'test name does not match pattern';

// node:test reporters yield text; each event is one line.
function line(ev) {
  return frame(ev).slice(1);
}

function failure(error) {
  // node wraps the thrown error: the assertion is its cause.
  const cause = error && error.cause && (error.cause.stack || error.cause.message) ? error.cause : error;
  const info = failureInfo((cause && cause.message) || (error && error.message), (cause && cause.stack) || (error && error.stack) || '');
  if (error && error.failureType) info.failureType = error.failureType;
  return info;
}

// A file that did not load: node prints the error on the child's stderr,
// headed by "file:///path:line" for a syntax error.
const SOURCE_LINE = /^(?:file:\/\/)?(\/[^:\s]+):(\d+)(?::(\d+))?$/m;

function loadFailure(error, printed) {
  const info = failure(error);
  if (!printed) return info;
  info.details = clip(printed);
  const lines = printed.split('\n').map((l) => l.trim()).filter(Boolean);
  const err = lines.find((l) => /^[A-Z][A-Za-z]*Error\b/.test(l));
  if (err) info.message = err;
  const m = SOURCE_LINE.exec(printed);
  if (m && inWorkspace(m[1])) info.loc = { file: m[1], line: Number(m[2]), ...(m[3] ? { col: Number(m[3]) } : {}) };
  else if (!info.loc) {
    const fr = frames(printed);
    if (fr.length) { info.loc = fr[0]; info.frames = fr.slice(0, 10); }
  }
  return info;
}

export default async function* aisbxReporter(source) {
  const stacks = new Map(); // file -> names by nesting level
  const paths = new Map(); // test key -> name path, fixed when it starts
  const ended = new Set();
  const output = new Map(); // file -> what it printed, for a file that fails to load

  const pathOf = (d) => {
    const file = d.file || '';
    let st = stacks.get(file);
    if (!st) stacks.set(file, (st = []));
    st.length = Math.min(st.length, d.nesting);
    st[d.nesting] = d.name;
    return st.slice(0, d.nesting + 1);
  };
  const key = (d) => `${d.file || ''}\u0000${d.nesting}\u0000${d.line || 0}\u0000${d.column || 0}\u0000${d.name}`;
  const isFile = (d) => d.file && (d.name === d.file || path.resolve(d.name) === path.resolve(d.file));

  for await (const { type, data } of source) {
    const d = data || {};
    switch (type) {
      case 'test:dequeue':
      case 'test:start': {
        if (isFile(d)) break;
        const k = key(d);
        if (paths.has(k)) break;
        const names = pathOf(d);
        paths.set(k, names);
        yield line({ e: 'start', id: k, name: names.join(' > '), path: names, file: d.file || '', line: d.line || 0 });
        break;
      }
      case 'test:complete':
      case 'test:pass':
      case 'test:fail': {
        const k = key(d);
        if (ended.has(k)) break;
        ended.add(k);
        const details = d.details || {};
        const failed = type === 'test:fail' || (type === 'test:complete' && details.passed === false);
        if (isFile(d)) {
          // A file-level failure that is not its tests' own: it did not load.
          if (failed && details.error && details.error.failureType !== 'subtestsFailed') {
            yield line({ e: 'error', id: k, name: d.file, file: d.file, ...loadFailure(details.error, output.get(d.file) || '') });
          }
          break;
        }
        const names = paths.get(k) || pathOf(d);
        const isSuite = details.type === 'suite';
        // Suites and tests a name pattern left out were announced when
        // dequeued, before node said what they were: take them back.
        if ((isSuite && !(failed && details.error && details.error.failureType !== 'subtestsFailed')) || d.skip === NAME_PATTERN_SKIP) {
          if (paths.has(k)) yield line({ e: 'drop', id: k });
          break;
        }
        let status = failed ? 'failed' : 'passed';
        const ev = { e: 'end', id: k, name: names.join(' > '), path: names, file: d.file || '', line: d.line || 0, ms: details.duration_ms || 0 };
        if (d.skip !== undefined) { status = 'skipped'; if (typeof d.skip === 'string') ev.message = d.skip; }
        if (d.todo !== undefined) { status = 'skipped'; ev.message = typeof d.todo === 'string' ? `todo: ${d.todo}` : 'todo'; }
        if (failed && details.error) Object.assign(ev, failure(details.error));
        if (failed && details.error && details.error.failureType === 'cancelledByParent') status = 'unknown';
        ev.status = status;
        yield line(ev);
        break;
      }
      case 'test:stdout':
      case 'test:stderr':
        // Node 20 does not say which test printed; keep a file's output for
        // when the file itself fails (a syntax error shows only there).
        if (d.message && d.file) output.set(d.file, clip((output.get(d.file) || '') + d.message));
        break;
      case 'test:diagnostic':
        break;
      default:
        break;
    }
  }
  yield line({ e: 'done' });
}
