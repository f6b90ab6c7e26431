// ES module imports, aliased.
import cp from 'child_process';
import * as childProcess from 'node:child_process';
import { exec as run, execSync } from 'child_process';
import { runInThisContext } from 'vm';

export function go(cmd, code) {
  cp.execSync(cmd); // want: js-child-process-exec
  childProcess.exec(cmd); // want: js-child-process-exec
  run(`git checkout ${cmd}`); // want: js-child-process-exec
  execSync('make ' + cmd); // want: js-child-process-exec
  runInThisContext(code); // want: js-vm-run
  globalThis.eval(code); // want: js-eval
}
