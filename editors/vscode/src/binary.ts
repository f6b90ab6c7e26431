// Finding aisbxd and building its command line. Pure: the file system and
// the environment come in as arguments, so the unit tests run it for real
// on temp dirs without VS Code.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface FindOptions {
  /** The `aisbx.path` setting; empty when unset. */
  configured: string;
  /** $PATH. */
  pathEnv: string | undefined;
  /** The user's home directory. */
  home: string;
  /** Whether p is an executable regular file; defaults to the real check. */
  isExecutable?: (p: string) => boolean;
}

export type FindResult =
  | { ok: true; path: string; source: 'setting' | 'PATH' | 'fallback' }
  | { ok: false; tried: string[]; message: string };

export const binaryName = 'aisbxd';

/** Where aisbxd is looked for when it is not on PATH, in order. */
export function fallbackDirs(home: string): string[] {
  return [path.join(home, '.local', 'bin'), '/usr/local/bin', path.join(home, 'go', 'bin')];
}

export function isExecutableFile(p: string): boolean {
  try {
    const st = fs.statSync(p);
    if (!st.isFile()) {
      return false;
    }
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function expandHome(p: string, home: string): string {
  if (p === '~') {
    return home;
  }
  if (p.startsWith('~/')) {
    return path.join(home, p.slice(2));
  }
  return p;
}

/**
 * Finds aisbxd: the setting when given (and then only there: a wrong
 * setting is an error to fix, not a reason to run some other binary), else
 * PATH, else the usual install directories.
 */
export function findBinary(opts: FindOptions): FindResult {
  const isExec = opts.isExecutable ?? isExecutableFile;
  const configured = opts.configured.trim();
  if (configured !== '') {
    const p = expandHome(configured, opts.home);
    if (isExec(p)) {
      return { ok: true, path: p, source: 'setting' };
    }
    return {
      ok: false,
      tried: [p],
      message: `aisbx.path is set to ${configured}, which is not an executable file.`,
    };
  }
  const tried: string[] = [];
  for (const dir of (opts.pathEnv ?? '').split(path.delimiter)) {
    if (dir === '') {
      continue;
    }
    const p = path.join(dir, binaryName);
    tried.push(p);
    if (isExec(p)) {
      return { ok: true, path: p, source: 'PATH' };
    }
  }
  for (const dir of fallbackDirs(opts.home)) {
    const p = path.join(dir, binaryName);
    if (tried.includes(p)) {
      continue;
    }
    tried.push(p);
    if (isExec(p)) {
      return { ok: true, path: p, source: 'fallback' };
    }
  }
  return {
    ok: false,
    tried,
    message: 'aisbxd was not found on PATH, in ~/.local/bin, /usr/local/bin or ~/go/bin.',
  };
}

export interface ServeSettings {
  standalone: boolean;
  logLevel: string;
}

/**
 * The arguments of `aisbxd serve`. Never `--stdio`: vscode-languageclient
 * appends it itself for the stdio transport.
 */
export function serveArgs(s: ServeSettings): string[] {
  const args = ['serve'];
  if (s.standalone) {
    args.push('--standalone');
  }
  if (s.logLevel !== '') {
    args.push('--log-level', s.logLevel);
  }
  return args;
}

/**
 * The daemon's log file: $AISBX_CACHE_DIR/daemon.log, else the user cache
 * dir's aisbx/daemon.log, as aisbxd's internal/logging computes it.
 */
export function daemonLogPath(env: NodeJS.ProcessEnv, home: string): string {
  if (env.AISBX_CACHE_DIR) {
    return path.join(env.AISBX_CACHE_DIR, 'daemon.log');
  }
  const cache = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(home, '.cache');
  return path.join(cache, 'aisbx', 'daemon.log');
}

/** The pid in `aisbxd daemon --stop`'s answer ("asked daemon (pid 42) to stop"). */
export function stoppedPid(out: string): number | undefined {
  const m = /\(pid (\d+)\)/.exec(out);
  return m ? Number(m[1]) : undefined;
}
