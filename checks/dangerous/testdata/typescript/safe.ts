// Safe TypeScript: nothing here may be reported.
import { execFile } from 'child_process';
import { randomBytes, randomUUID } from 'crypto';

// eval(code); cp.exec(cmd); el.innerHTML = html;
type Handler = (cmd: string) => void;
interface Exec { exec(cmd: string): void }

export function go(x: Exec, cmd: string, el: HTMLElement, items: string[]): string {
  x.exec(cmd); // a method called exec on an interface, not child_process
  execFile('git', ['status'], (err: Error | null) => err);
  el.textContent = cmd;
  el.innerHTML = '' as string;
  (el as HTMLElement).innerHTML = `<hr/>`;
  const doc: string = `document.write(${cmd})`;
  const token = randomBytes(16).toString('hex');
  const id: string = randomUUID();
  const shuffled = items.sort(() => Math.random() - 0.5);
  const eval2 = <T,>(v: T): T => v;
  return [doc, token, id, shuffled.join(), eval2(cmd)].join();
}

export function timers(fn: Handler): void {
  setTimeout(() => fn('x'), 10);
}
