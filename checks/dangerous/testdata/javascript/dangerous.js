// Dangerous JavaScript. Each line marked `want:` must be reported with
// exactly those rules; no other line may be.
const cp = require('child_process');
const { exec, execSync: runSync, spawn } = require('node:child_process');
const execFile = require('child_process').execFile;
const vm = require('vm');
const https = require('https');

function runUser(input, code, cmd, dir) {
  const v = eval(input); // want: js-eval
  const f = new Function('a', code); // want: js-new-function
  const g = Function(code); // want: js-new-function
  cp.exec(`ls ${dir}`); // want: js-child-process-exec
  exec('rm -rf ' + dir, () => {}); // want: js-child-process-exec
  runSync(cmd); // want: js-child-process-exec
  require('child_process').execSync(cmd); // want: js-child-process-exec
  spawn('ls', [dir], { shell: true }); // want: js-spawn-shell
  execFile('git', ['log', dir], { cwd: dir, shell: '/bin/bash' }); // want: js-spawn-shell
  vm.runInNewContext(code, {}); // want: js-vm-run
  const script = new vm.Script(code); // want: js-vm-run
  window.eval(input); // want: js-eval
  return [v, f, g, script];
}

const opts = { shell: true };
function spawnWithOpts(args) {
  return spawn('make', args, opts); // want: js-spawn-shell
}

function tls(host) {
  https.request({ host, rejectUnauthorized: false }); // want: js-tls-reject-unauthorized
  const agent = new https.Agent();
  agent.options.rejectUnauthorized = false; // want: js-tls-reject-unauthorized
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0'; // want: js-node-tls-reject-unauthorized
  process.env['NODE_TLS_REJECT_UNAUTHORIZED'] = 0; // want: js-node-tls-reject-unauthorized
  cp.fork('worker.js', [], { env: { NODE_TLS_REJECT_UNAUTHORIZED: '0' } }); // want: js-node-tls-reject-unauthorized
}

function dom(el, html, name) {
  el.innerHTML = html; // want: js-inner-html
  el.innerHTML += `<li>${name}</li>`; // want: js-inner-html
  el.outerHTML = '<div>' + name + '</div>'; // want: js-inner-html
  el.insertAdjacentHTML('beforeend', html); // want: js-inner-html
  document.write(html); // want: js-document-write
  document.writeln('<p>' + name); // want: js-document-write
}

function timers(name) {
  setTimeout('refresh()', 1000); // want: js-string-timer
  setInterval('poll("' + name + '")', 500); // want: js-string-timer
  window.setTimeout(`tick(${name})`, 10); // want: js-string-timer
}

function makeToken() {
  const token = Math.random().toString(36).slice(2); // want: js-insecure-random
  return token;
}

function generateSessionId() {
  return String(Math.random()).slice(2); // want: js-insecure-random
}

const user = {
  resetCode: Math.floor(Math.random() * 1e6), // want: js-insecure-random
};

module.exports = { runUser, spawnWithOpts, tls, dom, timers, makeToken, generateSessionId, user };
