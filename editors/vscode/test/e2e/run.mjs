// End-to-end test of the aisbx extension in a real VS Code (code-server),
// driven through headless Debian chromium with playwright-core. It installs
// the .vsix, opens a workspace and checks what a user sees:
//   1. the Problems panel shows aisbx's diagnostic on aisbx.toml;
//   2. the status bar item says the daemon runs;
//   3. aisbxd was started as `aisbxd serve … --stdio`, --stdio once;
//   4. Ctrl+. on a leaked key offers aisbx's quick fix;
//   5. the Testing view lists the tests aisbx discovered;
//   6. Ctrl+. in a failing Go test offers the sandbox run; running it puts
//      the failure in the Problems panel and ✗ in the status bar;
//   7. aisbx: Restart daemon brings a new daemon and the client back;
//   8. aisbx: Show log opens the daemon's log.
// Every step saves a screenshot into AISBX_E2E_SHOTS. Steps 4 and 5 do not
// depend on 1-3, nor on each other: all run, and the script fails if any
// failed.
//
// Environment (editors/vscode/vscode_test.go sets it):
//   AISBX_E2E_CODE_SERVER  the code-server launcher (scripts/editors/code-server.sh)
//   AISBX_E2E_VSIX         the packaged extension
//   AISBX_E2E_AISBXD       the aisbxd binary (goes into aisbx.path)
//   AISBX_E2E_WORKSPACE    the folder to open (aisbx.toml, settings.py, calc_test.go)
//   AISBX_E2E_SHOTS        where screenshots go
//   AISBX_E2E_CHROMIUM     default /usr/bin/chromium
// aisbxd's own variables (AISBX_SOCKET, AISBX_CACHE_DIR…) pass through to it.
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';

const env = (name, fallback) => {
  const v = process.env[name] ?? fallback;
  if (v === undefined || v === '') {
    console.error(`FAIL: ${name} is not set`);
    process.exit(2);
  }
  return v;
};

const codeServer = env('AISBX_E2E_CODE_SERVER');
const vsix = env('AISBX_E2E_VSIX');
const aisbxd = env('AISBX_E2E_AISBXD');
const workspace = env('AISBX_E2E_WORKSPACE');
const shots = env('AISBX_E2E_SHOTS');
const chromiumPath = env('AISBX_E2E_CHROMIUM', '/usr/bin/chromium');

mkdirSync(shots, { recursive: true });
const tmp = mkdtempSync(join(tmpdir(), 'aisbx-e2e-'));
const home = join(tmp, 'home');
const userData = join(tmp, 'user-data');
const extensions = join(tmp, 'extensions');
mkdirSync(join(userData, 'User'), { recursive: true });
mkdirSync(join(userData, 'Machine'), { recursive: true });
mkdirSync(home, { recursive: true });
// aisbx.path is machine-overridable: code-server reads it from the server
// machine's settings, as a remote window does.
writeFileSync(join(userData, 'Machine', 'settings.json'), JSON.stringify({ 'aisbx.path': aisbxd }, null, 2));
writeFileSync(
  join(userData, 'User', 'settings.json'),
  JSON.stringify(
    {
      'workbench.startupEditor': 'none',
      'workbench.welcomePage.walkthroughs.openOnInstall': false,
      'workbench.tips.enabled': false,
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
      'chat.disableAIFeatures': true,
      'security.workspace.trust.enabled': false,
      'telemetry.telemetryLevel': 'off',
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'extensions.ignoreRecommendations': true,
      'update.mode': 'none',
      'git.enabled': false,
      'editor.codeActionWidget.includeNearbyQuickFixes': true,
    },
    null,
    2,
  ),
);
// VS Code resolves the extension host's environment from a login shell,
// where /etc/profile resets PATH: give that shell this PATH (with go on it),
// as a developer's own profile does.
for (const rc of ['.profile', '.bashrc']) {
  writeFileSync(join(home, rc), `export PATH=${JSON.stringify(process.env.PATH ?? '')}\n`);
}
const childEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local/share') };

const results = [];
const ok = (msg) => {
  results.push({ ok: true, msg });
  console.log(`ok: ${msg}`);
};
const failed = (msg) => {
  results.push({ ok: false, msg });
  console.log(`FAIL: ${msg}`);
};

async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, timeoutMs, fn) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    try {
      last = await fn();
      if (last) {
        return last;
      }
    } catch (err) {
      last = err;
    }
    await sleep(250);
  }
  throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}${last instanceof Error ? `: ${last.message}` : ''}`);
}

let shotN = 0;
async function shot(page, name) {
  shotN += 1;
  const file = join(shots, `${String(shotN).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file }).catch(() => {});
  return file;
}

// --- install and start --------------------------------------------------------

const t0 = Date.now();
const install = await promisify(execFile)(
  codeServer,
  ['--install-extension', vsix, '--extensions-dir', extensions, '--user-data-dir', userData],
  { env: childEnv, timeout: 120_000 },
).catch((err) => err);
if (install instanceof Error || !/successfully installed/i.test(install.stdout)) {
  console.error(`FAIL: code-server --install-extension ${vsix}:\n${install.stdout ?? ''}${install.stderr ?? install.message}`);
  process.exit(1);
}
ok(`installed ${vsix} (${readdirSync(extensions).filter((d) => d.startsWith('aisbx.')).join(', ')})`);

const port = await freePort();
const server = spawn(
  codeServer,
  [
    '--bind-addr', `127.0.0.1:${port}`,
    '--auth', 'none',
    '--disable-workspace-trust',
    '--disable-telemetry',
    '--disable-update-check',
    '--extensions-dir', extensions,
    '--user-data-dir', userData,
    workspace,
  ],
  { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
);
let serverLog = '';
server.stdout.on('data', (d) => (serverLog += d));
server.stderr.on('data', (d) => (serverLog += d));

let context;
// The extension's output channels, read from the server's log files before
// the temp dir goes.
const extensionLogs = [];
const readExtensionLogs = (dir) => {
  let entries = [];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      readExtensionLogs(p);
    } else if (/aisbx/i.test(e.name) && e.name.endsWith('.log')) {
      extensionLogs.push([e.name, readFileSync(p, 'utf8')]);
    }
  }
};
const cleanup = async () => {
  await context?.close().catch(() => {});
  readExtensionLogs(join(userData, 'logs'));
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {
    // already gone
  }
  await sleep(500);
  try {
    process.kill(-server.pid, 'SIGKILL');
  } catch {
    // already gone
  }
  rmSync(tmp, { recursive: true, force: true });
};

try {
  await until('code-server to answer', 60_000, async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok);
  ok(`code-server up on 127.0.0.1:${port} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  context = await chromium.launchPersistentContext(join(tmp, 'chromium'), {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`);
  await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'aisbx.toml' }).first().waitFor({ timeout: 60_000 });
  await shot(page, 'workbench');

  const h = helpers(page);

  // 1. The Problems panel shows aisbx's diagnostic on aisbx.toml. The Go
  // test file opens first: its first checks (linters on cold caches) take
  // a while, and the later steps need them done.
  await step('Problems panel shows the aisbx.toml diagnostic', async () => {
    await h.openFile('calc_test.go');
    await h.openFile('aisbx.toml');
    await h.showProblems();
    const text = await until('an aisbx problem on aisbx.toml', 60_000, async () => {
      const t = await h.problemsText();
      return t.includes('pool_sise') && t.includes('aisbx') ? t : false;
    });
    await shot(page, 'problems-config');
    return `Problems: ${oneLine(text).slice(0, 160)}`;
  });

  // 2. The status bar item says the daemon runs.
  await step('status bar shows the running daemon', async () => {
    const text = await until('the aisbx status bar item to show the pool (aisbx.status)', 30_000, async () => {
      const t = await h.statusBarText();
      return /aisbx: (warm|cold|no engine)/.test(t) ? t : false;
    });
    return `status bar: ${text.trim()}`;
  });

  // 3. aisbxd was started with exactly one --stdio.
  await step('aisbxd serve got --stdio once', async () => {
    const lines = serveCommandLines(aisbxd);
    if (lines.length === 0) {
      throw new Error(`no running "${aisbxd} serve" process`);
    }
    for (const args of lines) {
      const n = args.filter((a) => a === '--stdio').length;
      if (n !== 1) {
        throw new Error(`--stdio ${n} times: ${args.join(' ')}`);
      }
    }
    return `command line: ${lines[0].join(' ')}`;
  });

  // 4. Ctrl+. on the leaked key offers aisbx's quick fix.
  await step('Ctrl+. offers the quick fix on a leaked key', async () => {
    await h.openFile('settings.py');
    await h.showProblems();
    await until('an aisbx problem on settings.py', 60_000, async () => /settings\.py[\s\S]*aisbx|aisbx[\s\S]*settings\.py/.test(await h.problemsText()));
    await h.gotoLine(3, 25);
    const { text: menu, secs } = await h.quickFixMenu();
    await shot(page, 'quickfix-secret');
    await page.keyboard.press('Escape');
    if (!/suppress|allowlist/i.test(menu)) {
      throw new Error(`no aisbx quick fix in the Ctrl+. menu: ${oneLine(menu)}`);
    }
    return `Ctrl+. menu in ${secs} s: ${oneLine(menu).slice(0, 200)}`;
  });

  // 5. The Testing view lists the tests aisbx discovered (aisbx/discoverTests).
  await step('Testing view lists the discovered tests', async () => {
    await page.keyboard.press('Escape');
    await h.command('Testing: Focus on Test Explorer View');
    const text = await until('TestAdd and TestSub in the Testing view', 30_000, async () => {
      // Expand what is collapsed: children of a collapsed item are not in the DOM.
      for (const row of await page.locator('.test-explorer .monaco-list-row[aria-expanded="false"]').all()) {
        await row.locator('.monaco-tl-twistie').click({ timeout: 2_000 }).catch(() => {});
      }
      const t = (await page.locator('.test-explorer').allInnerTexts()).join('\n');
      return t.includes('TestAdd') && t.includes('TestSub') ? t : false;
    });
    await shot(page, 'testing-view');
    return `Testing view: ${oneLine(text).slice(0, 160)}`;
  });

  // 6. Ctrl+. in the failing test offers the sandbox run; run it.
  await step('Ctrl+. runs the failing test in the sandbox', async () => {
    await h.openFile('calc_test.go');
    await h.gotoLine(5, 7);
    const { text: menu, secs } = await h.quickFixMenu();
    await shot(page, 'sandbox-actions');
    if (!/run this test in sandbox/i.test(menu)) {
      await page.keyboard.press('Escape');
      throw new Error(`no "Run this test in sandbox" in the Ctrl+. menu: ${oneLine(menu)}`);
    }
    await h.pickAction(/run this test in sandbox/i);
    const picked = Date.now();
    await h.showProblems();
    const problems = await until('the failing test in the Problems panel', 180_000, async () => {
      const t = await h.problemsText();
      return t.includes('want 5') ? t : false;
    });
    await shot(page, 'sandbox-result');
    const bar = await until('✗ in the status bar', 30_000, async () => {
      const t = await h.statusBarText();
      return t.includes('✗') ? t : false;
    });
    const runSecs = ((Date.now() - picked) / 1000).toFixed(1);
    return `Ctrl+. menu in ${secs} s; failure in Problems ${runSecs} s after the pick: ${oneLine(problems).slice(0, 120)}; status bar: ${bar.trim()}`;
  });

  // 7. Restart daemon: a new daemon answers and the client is back.
  await step('aisbx: Restart daemon starts a new daemon', async () => {
    const before = await daemonPid();
    await h.command('aisbx: Restart daemon');
    const after = await until('a new daemon', 60_000, async () => {
      const pid = await daemonPid();
      return pid && pid !== before ? pid : false;
    });
    const bar = await until('the status bar back to running', 60_000, async () => {
      const t = await h.statusBarText();
      return /aisbx: (warm|cold|no engine)/.test(t) ? t : false;
    });
    return `daemon pid ${before} -> ${after}; status bar: ${bar.trim()}`;
  });

  // 8. Show log opens the daemon's log file.
  await step('aisbx: Show log opens the daemon log', async () => {
    await h.command('aisbx: Show log');
    await page.locator('.tabs-container .tab[data-resource-name="daemon.log"]').first().waitFor({ timeout: 20_000 });
    await shot(page, 'daemon-log');
    return 'daemon.log is open';
  });

  async function step(name, fn) {
    const start = Date.now();
    try {
      const detail = await fn();
      ok(`${name} (${((Date.now() - start) / 1000).toFixed(1)} s): ${detail}`);
    } catch (err) {
      await shot(page, `failed-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`);
      failed(`${name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
} catch (err) {
  failed(err instanceof Error ? err.stack ?? err.message : String(err));
} finally {
  await cleanup();
}

const bad = results.filter((r) => !r.ok);
console.log(`screenshots: ${shots}`);
if (bad.length > 0) {
  console.log(`code-server log (tail):\n${serverLog.split('\n').slice(-30).join('\n')}`);
  for (const [name, text] of extensionLogs) {
    console.log(`${name} (tail):\n${text.split('\n').slice(-40).join('\n')}`);
  }
}
console.log(`${results.length - bad.length} passed, ${bad.length} failed`);
process.exit(bad.length > 0 ? 1 : 0);

// --- helpers ------------------------------------------------------------------

/** The pid of the daemon on AISBX_SOCKET, from `aisbxd status --json`; 0 when none runs. */
async function daemonPid() {
  const res = await promisify(execFile)(aisbxd, ['status', '--json'], { env: process.env }).catch((err) => err);
  try {
    const st = JSON.parse(res.stdout ?? '');
    return st.running ? st.pid : 0;
  } catch {
    return 0;
  }
}

function oneLine(s) {
  return s.replace(/\s+/g, ' ').trim();
}

/** The argument lists of running `AISBXD serve` processes. */
function serveCommandLines(bin) {
  const out = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let args;
    try {
      args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((a) => a !== '');
    } catch {
      continue;
    }
    if (args[0] === bin && args[1] === 'serve') {
      out.push(args);
    }
  }
  return out;
}

function helpers(page) {
  return {
    /** Opens a workspace file through Quick Open (Ctrl+P), retrying while the workbench settles. */
    async openFile(name) {
      const tab = page.locator(`.tabs-container .tab.active[data-resource-name="${name}"]`);
      await until(`${name} to open`, 60_000, async () => {
        // A focused tree (Testing, Explorer) would take the keys: start from the editor.
        await this.focusEditor({ ifOpen: true }).catch(() => {});
        await page.keyboard.press('Escape');
        await page.keyboard.press('Control+P');
        const input = page.locator('.quick-input-widget input');
        await input.waitFor({ state: 'visible', timeout: 5_000 });
        await input.fill(name);
        // Wait for the filtered list's focused row, not any row: the
        // unfiltered "recently opened" list already shows the name, and an
        // Enter before the filter applies (a loaded machine) opens whatever
        // was focused there.
        await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: name }).first().waitFor({ timeout: 10_000 });
        await page.keyboard.press('Enter');
        await tab.waitFor({ timeout: 5_000 });
        return true;
      });
      // The keys that follow (Ctrl+G, Ctrl+.) go to the editor.
      await this.focusEditor();
    },
    /**
     * Puts the keyboard focus in the active editor. By command, not by a
     * click: where a click lands depends on how the editor is scrolled
     * (above its text, or on a code lens that would start a run).
     */
    async focusEditor({ ifOpen = false } = {}) {
      const editor = page.locator('.editor-group-container.active .monaco-editor');
      if (ifOpen && (await editor.count()) === 0) {
        return;
      }
      // The tab shows before the editor widget is in the DOM.
      await editor.first().waitFor({ timeout: 10_000 });
      const focused = page.locator('.editor-group-container.active .monaco-editor.focused');
      if ((await focused.count()) > 0) {
        return;
      }
      await this.command('View: Focus Active Editor Group');
      await focused.first().waitFor({ timeout: 10_000 });
    },
    /** Moves the cursor with Go to Line (Ctrl+G), 1-based line and column. */
    async gotoLine(line, col) {
      await page.keyboard.press('Control+G');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(`:${line}:${col}`);
      await page.keyboard.press('Enter');
      await sleep(300);
    },
    /** Runs a command by its title through the command palette (F1). */
    async command(title) {
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(`>${title}`);
      // The focused row, as in openFile: Enter must not beat the filter.
      await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: title }).first().waitFor({ timeout: 10_000 });
      await page.keyboard.press('Enter');
    },
    async showProblems() {
      if (!(await page.locator('.markers-panel').isVisible().catch(() => false))) {
        await page.keyboard.press('Control+Shift+M');
        await page.locator('.markers-panel').waitFor({ state: 'visible', timeout: 15_000 });
      }
    },
    async problemsText() {
      // allInnerTexts does not wait for the panel (innerText would, 30 s).
      return (await page.locator('.markers-panel').allInnerTexts()).join('\n');
    },
    async statusBarText() {
      const items = await page.locator('.statusbar-item').allInnerTexts();
      return items.find((t) => t.includes('aisbx')) ?? '';
    },
    /** Opens Ctrl+. and returns the menu's text once it lists something, and how long that took. */
    async quickFixMenu() {
      const start = Date.now();
      await page.keyboard.press('Control+Period');
      // Several editors may each hold a (hidden) action widget.
      const widget = page.locator('.context-view .action-widget').filter({ visible: true }).first();
      // Generous: the server answers once the file's checks (linters too) ran.
      const text = await until('the Ctrl+. menu', 150_000, async () => {
        if (!(await widget.isVisible().catch(() => false))) {
          // VS Code says so in a transient overlay when nothing is offered.
          // allInnerTexts does not wait: innerText on a missing element
          // would wait out Playwright's 30 s action timeout.
          const note = (await page.locator('.monaco-editor-overlaymessage').filter({ visible: true }).allInnerTexts()).join(' ');
          if (/no code actions/i.test(note)) {
            throw new Error(`VS Code says: ${oneLine(note)}`);
          }
          return false;
        }
        const t = await widget.innerText({ timeout: 2_000 });
        return /\S/.test(t) && !/^\s*(Loading|No code actions)/i.test(t) ? t : false;
      });
      return { text, secs: ((Date.now() - start) / 1000).toFixed(1) };
    },
    async pickAction(re) {
      const row = page.locator('.context-view .action-widget .monaco-list-row').filter({ visible: true }).filter({ hasText: re }).first();
      await row.click();
    },
  };
}
