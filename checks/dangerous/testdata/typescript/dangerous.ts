// TypeScript: the same rules through type syntax.
import cp = require('child_process');
import { exec as run } from 'node:child_process';
import * as vm from 'vm';
import type { Agent } from 'https';

export function go(cmd: string, code: string, el: HTMLElement | null, opts?: { dir: string }): void {
  cp.execSync(cmd); // want: js-child-process-exec
  run(`tar xf ${opts!.dir}`); // want: js-child-process-exec
  (el as HTMLElement).innerHTML = code; // want: js-inner-html
  el!.outerHTML = code; // want: js-inner-html
  vm.runInThisContext(code satisfies string); // want: js-vm-run
  const v: unknown = eval(code as string); // want: js-eval
  cp.spawn('sh', ['-c', cmd], { shell: true } as const); // want: js-spawn-shell
}

export function makeApiKey(): string {
  const apiKey: string = Math.random().toString(16).substring(2); // want: js-insecure-random
  return apiKey;
}

export const tlsOptions: { rejectUnauthorized: boolean } = { rejectUnauthorized: false }; // want: js-tls-reject-unauthorized

class Poller {
  private timer = setInterval('this.poll()', 1000); // want: js-string-timer
  private nonce: number = Math.random(); // want: js-insecure-random
}
