// aisbx reporter for jest: one JSON line per test event on stdout, in the
// "@aisbx:" protocol of the pytest plugin.
//
// Use: jest --reporters=default --reporters=./aisbx-jest-reporter.mjs --testLocationInResults
import { line, failureInfo } from './aisbx-reporter-common.mjs';

function emit(ev) {
  process.stdout.write(line(ev));
}

// jest's failure messages hold ANSI colours and the stack as text.
function failure(messages) {
  const text = String((messages || []).join('\n')).replace(/\u001b\[[0-9;]*m/g, '');
  return failureInfo(text, text);
}

const STATUS = { passed: 'passed', failed: 'failed', pending: 'skipped', skipped: 'skipped', todo: 'skipped', disabled: 'skipped', focused: 'passed' };

class AisbxReporter {
  constructor(globalConfig) {
    this.ended = new Set();
    // Tests left out by -t are reported as pending; they did not run.
    const p = globalConfig && globalConfig.testNamePattern;
    this.filter = p ? new RegExp(p, 'i') : null;
  }

  filteredOut(names, status) {
    return this.filter !== null && status === 'pending' && !this.filter.test(names.join(' '));
  }

  onRunStart(results) {
    emit({ e: 'run', files: results.numTotalTestSuites });
  }

  onTestCaseStart(test, info) {
    const names = [...(info.ancestorTitles || []), info.title];
    if (this.filter !== null && !this.filter.test(names.join(' '))) return;
    emit({ e: 'start', id: this.id(test.path, names), name: names.join(' > '), path: names, file: test.path });
  }

  onTestCaseResult(test, r) {
    this.end(test.path, r);
  }

  onTestFileResult(test, result) {
    for (const r of result.testResults || []) this.end(test.path, r);
    if (result.testExecError) {
      const err = result.testExecError;
      emit({ e: 'error', id: test.path, name: test.path, file: test.path, ...failure([err.stack || err.message]) });
    }
  }

  onRunComplete(_contexts, results) {
    emit({ e: 'done', exit: results.success ? 0 : 1 });
  }

  id(file, names) {
    return `${file}\u0000${names.join('\u0000')}`;
  }

  end(file, r) {
    const names = [...(r.ancestorTitles || []), r.title];
    const id = this.id(file, names);
    if (this.ended.has(id) || this.filteredOut(names, r.status)) return;
    this.ended.add(id);
    const ev = { e: 'end', id, name: names.join(' > '), path: names, file, status: STATUS[r.status] || 'unknown', ms: r.duration || 0 };
    if (r.location) ev.line = r.location.line;
    if (r.status === 'todo') ev.message = 'todo';
    if (r.status === 'failed') Object.assign(ev, failure(r.failureMessages));
    emit(ev);
  }

  getLastError() {
    return undefined;
  }
}

export default AisbxReporter;
