// Safe JavaScript: nothing here may be reported.
// eval(x); new Function(code); cp.exec(cmd); el.innerHTML = x; in comments
/* document.write(html); setTimeout("x()", 1); Math.random() for a token */
const cp = require('child_process');
const { execFile, spawn } = require('child_process');
const crypto = require('crypto');

const SCRIPT = 'echo hi';
function processes(args, dir) {
  execFile('git', ['log', dir], (err, out) => out);
  spawn('ls', args);
  spawn('ls', args, { shell: false, cwd: dir });
  cp.execFile('node', ['--version']);
  cp.exec('git status');
  cp.exec(SCRIPT);
  cp.execSync(`date +%s`);
  const re = /ab+c/;
  return re.exec(dir); // RegExp.prototype.exec is not child_process
}

function parse(text) {
  const data = JSON.parse(text);
  const msg = "never call eval(text) or new Function(text)";
  const literal = eval('1 + 2');
  const add = new Function('a', 'b', 'return a + b');
  return [data, msg, literal, add];
}

function dom(el, name) {
  el.textContent = name;
  el.innerHTML = '';
  el.innerHTML = '<b>static</b>';
  el.innerText = name;
  document.write('<p>static</p>');
  el.setAttribute('title', name);
}

function timers(fn) {
  setTimeout(fn, 1000);
  setTimeout(() => fn(), 10);
  setInterval(function () { fn(); }, 500);
}

function randomness(items) {
  const token = crypto.randomBytes(32).toString('hex');
  const id = crypto.randomUUID();
  const jitter = Math.random() * 100;
  const pick = items[Math.floor(Math.random() * items.length)];
  const delay = 500 + Math.random() * 250;
  return { token, id, jitter, pick, delay };
}

function tls(https, host) {
  https.request({ host, rejectUnauthorized: true });
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '1';
  const warning = "NODE_TLS_REJECT_UNAUTHORIZED=0 is dangerous";
  return warning;
}

function shadowed() {
  const eval = (s) => s.length;
  return eval(process.argv[2]);
}

module.exports = { processes, parse, dom, timers, randomness, tls, shadowed };
