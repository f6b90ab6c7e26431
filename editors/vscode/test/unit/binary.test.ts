import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { daemonLogPath, findBinary, serveArgs, stoppedPid } from '../../src/binary';

/** A temp home with bin dirs; exec marks which aisbxd files are executable. */
function layout(files: Record<string, 'exec' | 'plain' | 'dir'>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'aisbx-bin-'));
  for (const [rel, kind] of Object.entries(files)) {
    const p = path.join(root, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    if (kind === 'dir') {
      fs.mkdirSync(p);
    } else {
      fs.writeFileSync(p, '#!/bin/sh\n', { mode: kind === 'exec' ? 0o755 : 0o644 });
    }
  }
  return root;
}

const cases: {
  name: string;
  files: Record<string, 'exec' | 'plain' | 'dir'>;
  configured?: string;
  path: string[];
  want: { found: string; source: string } | { error: RegExp };
}[] = [
  {
    name: 'setting wins over PATH',
    files: { 'custom/aisbxd': 'exec', 'p1/aisbxd': 'exec' },
    configured: '{root}/custom/aisbxd',
    path: ['p1'],
    want: { found: 'custom/aisbxd', source: 'setting' },
  },
  {
    name: 'setting with ~ is under home',
    files: { 'home/bin/aisbxd': 'exec' },
    configured: '~/bin/aisbxd',
    path: [],
    want: { found: 'home/bin/aisbxd', source: 'setting' },
  },
  {
    name: 'a wrong setting is an error, not a fallback',
    files: { 'p1/aisbxd': 'exec' },
    configured: '{root}/nope/aisbxd',
    path: ['p1'],
    want: { error: /aisbx\.path is set to .*nope\/aisbxd, which is not an executable file/ },
  },
  {
    name: 'first executable on PATH, in order',
    files: { 'p1/aisbxd': 'plain', 'p2/aisbxd': 'dir', 'p3/aisbxd': 'exec', 'p4/aisbxd': 'exec' },
    path: ['p1', '', 'p2', 'p3', 'p4'],
    want: { found: 'p3/aisbxd', source: 'PATH' },
  },
  {
    name: '~/.local/bin before ~/go/bin when not on PATH',
    files: { 'home/.local/bin/aisbxd': 'exec', 'home/go/bin/aisbxd': 'exec' },
    path: ['p1'],
    want: { found: 'home/.local/bin/aisbxd', source: 'fallback' },
  },
  {
    name: '~/go/bin as the last resort',
    files: { 'home/go/bin/aisbxd': 'exec', 'home/.local/bin/aisbxd': 'plain' },
    path: [],
    want: { found: 'home/go/bin/aisbxd', source: 'fallback' },
  },
  {
    name: 'nowhere',
    files: { 'p1/other': 'exec' },
    path: ['p1'],
    want: { error: /aisbxd was not found on PATH, in ~\/\.local\/bin, \/usr\/local\/bin or ~\/go\/bin/ },
  },
];

for (const c of cases) {
  test(`findBinary: ${c.name}`, () => {
    const root = layout(c.files);
    const res = findBinary({
      configured: (c.configured ?? '').replace('{root}', root),
      pathEnv: c.path.map((p) => (p === '' ? '' : path.join(root, p))).join(path.delimiter),
      home: path.join(root, 'home'),
      // /usr/local/bin is a real fallback dir: keep a host install out of the table.
      isExecutable: (p) => !p.startsWith('/usr/local/bin/') && realIsExec(p),
    });
    if ('error' in c.want) {
      assert.equal(res.ok, false);
      assert.match(res.ok ? '' : res.message, c.want.error);
    } else {
      assert.deepEqual(res, { ok: true, path: path.join(root, c.want.found), source: c.want.source });
    }
  });
}

function realIsExec(p: string): boolean {
  try {
    return fs.statSync(p).isFile() && (fs.statSync(p).mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

test('findBinary: the default check refuses directories and non-executables', () => {
  const root = layout({ 'p1/aisbxd': 'dir', 'p2/aisbxd': 'plain', 'p3/aisbxd': 'exec' });
  const res = findBinary({
    configured: '',
    pathEnv: ['p1', 'p2', 'p3'].map((p) => path.join(root, p)).join(path.delimiter),
    home: path.join(root, 'home'),
  });
  assert.deepEqual(res, { ok: true, path: path.join(root, 'p3/aisbxd'), source: 'PATH' });
});

test('serveArgs never passes --stdio (vscode-languageclient appends it)', () => {
  const table: [boolean, string, string[]][] = [
    [false, 'info', ['serve', '--log-level', 'info']],
    [true, 'debug', ['serve', '--standalone', '--log-level', 'debug']],
    [false, '', ['serve']],
  ];
  for (const [standalone, logLevel, want] of table) {
    const got = serveArgs({ standalone, logLevel });
    assert.deepEqual(got, want);
    assert.ok(!got.includes('--stdio'));
  }
});

test('daemonLogPath follows aisbxd: AISBX_CACHE_DIR, XDG_CACHE_HOME, ~/.cache', () => {
  const table: [NodeJS.ProcessEnv, string][] = [
    [{ AISBX_CACHE_DIR: '/c' }, '/c/daemon.log'],
    [{ XDG_CACHE_HOME: '/x' }, '/x/aisbx/daemon.log'],
    [{ XDG_CACHE_HOME: 'relative' }, '/h/.cache/aisbx/daemon.log'],
    [{}, '/h/.cache/aisbx/daemon.log'],
  ];
  for (const [env, want] of table) {
    assert.equal(daemonLogPath(env, '/h'), want);
  }
});

// What the real `aisbxd daemon --stop` printed, with and without a daemon.
test('stoppedPid reads aisbxd daemon --stop', () => {
  const table: [string, number | undefined][] = [
    ['asked daemon (pid 10397) to stop\n', 10397],
    ['aisbxd daemon --stop: no aisbx daemon is running at /tmp/lat/none.sock: dial unix /tmp/lat/none.sock: connect: no such file or directory\n', undefined],
    ['', undefined],
  ];
  for (const [out, want] of table) {
    assert.equal(stoppedPid(out), want, out);
  }
});
