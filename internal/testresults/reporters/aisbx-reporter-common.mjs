// Shared by the aisbx JS reporters (node --test, jest, vitest): the
// "@aisbx:" line format, output bounds, and stack frames in the workspace.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MARK = '@aisbx:';
const MAX_TEXT = 16384;
const WORKDIR = path.resolve(process.env.AISBX_WORKDIR || process.cwd());

// Stack frames "    at fn (file:///w/a.js:5:29)" or "    at /w/a.js:5:29".
const FRAME = /^\s*at (?:.*? \()?((?:file:\/\/)?\/[^():]+):(\d+):(\d+)\)?\s*$/;

export function clip(s) {
  s = s == null ? '' : String(s);
  if (s.length <= MAX_TEXT) return s;
  const half = MAX_TEXT / 2;
  return `${s.slice(0, half)}\n[... aisbx: ${s.length - MAX_TEXT} characters elided ...]\n${s.slice(-half)}`;
}

// line formats one event; it starts on a line of its own.
export function line(ev) {
  return `\n${MARK}${JSON.stringify(ev)}\n`;
}

export function inWorkspace(file) {
  if (!file) return false;
  const p = path.resolve(file);
  if (p !== WORKDIR && !p.startsWith(WORKDIR + path.sep)) return false;
  return !p.split(path.sep).includes('node_modules');
}

// frames returns the stack frames of text that are in the workspace,
// innermost first.
export function frames(text) {
  const out = [];
  for (const l of String(text || '').split('\n')) {
    const m = FRAME.exec(l);
    if (!m) continue;
    let file = m[1];
    if (file.startsWith('file://')) {
      try { file = fileURLToPath(file); } catch { continue; }
    }
    if (inWorkspace(file)) out.push({ file, line: Number(m[2]), col: Number(m[3]) });
  }
  return out;
}

// failureInfo is the message, details and location of a failure whose
// stack is text.
export function failureInfo(message, text) {
  const fr = frames(text);
  const first = String(message || '').split('\n').map((l) => l.trim()).find((l) => l) || 'failed';
  const info = { message: clip(first), details: clip(text), frames: fr.slice(0, 10) };
  if (fr.length) info.loc = fr[0];
  return info;
}
