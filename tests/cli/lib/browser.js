// browser.js - drives headless chromium through its DevTools pipe (no npm
// packages): loads a page, presses keys, reads the DOM, takes a screenshot.
//
// usage: node browser.js CHROMIUM SHOT.png PAGE.html SCRIPT.json [PAGE SCRIPT]...
// Each page is loaded in turn (one browser start for all) and its script
// run; SHOT.png is the screenshot of the first page at the end of its
// script.  A SCRIPT.json is a list of actions, run in order:
//   {"key": "ArrowRight", "shift": false}       press and release a key
//   {"eval": "JS expression", "name": "label"}  evaluate in the page; the
//                                               value is printed as
//                                               "label<TAB>JSON" on stdout
// Exit 0, or 1 with a one-line reason on stderr.  Gives up after 60 s.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const [chrome, shot, ...pairs] = process.argv.slice(2);
if (!pairs.length || pairs.length % 2) {
  console.error('usage: node browser.js CHROMIUM SHOT.png PAGE.html SCRIPT.json [PAGE SCRIPT]...');
  process.exit(2);
}
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-browser-'));
const proc = spawn(chrome, [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--hide-scrollbars',
  '--window-size=1000,760', '--user-data-dir=' + profile, '--remote-debugging-pipe', 'about:blank',
], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });

let stderr = '';
proc.stderr.on('data', (d) => { stderr += d; });
function cleanup() {
  try { proc.kill('SIGKILL'); } catch (e) { /* already gone */ }
  // A killed chromium may still be writing its profile: retry the removal,
  // and never let a leftover temporary folder fail the test.
  try { fs.rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }); } catch (e) { /* left behind */ }
}
function die(why) {
  console.error('browser.js: ' + why + (stderr ? ' (chromium: ' + stderr.trim().split('\n').pop() + ')' : ''));
  cleanup();
  process.exit(1);
}
const timer = setTimeout(() => die('timed out'), 60000);
proc.on('error', (e) => die('cannot start ' + chrome + ': ' + e.message));

// The pipe speaks JSON messages ended by a NUL byte.
const toChrome = proc.stdio[3], fromChrome = proc.stdio[4];
let nextId = 1, buf = '';
const pending = new Map(), waiters = [], errors = [];
fromChrome.on('data', (d) => {
  buf += d.toString('utf8');
  let z;
  while ((z = buf.indexOf('\0')) >= 0) {
    const msg = JSON.parse(buf.slice(0, z));
    buf = buf.slice(z + 1);
    if (msg.id && pending.has(msg.id)) {
      const { resolve, reject } = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) reject(new Error(msg.error.message));
      else resolve(msg.result);
    } else if (msg.method === 'Runtime.exceptionThrown') {
      const d = msg.params.exceptionDetails;
      errors.push((d.exception && d.exception.description) || d.text);
    } else if (msg.method) {
      for (let i = 0; i < waiters.length; i++)
        if (waiters[i].method === msg.method) { waiters.splice(i, 1)[0].resolve(msg.params); break; }
    }
  }
});
function send(method, params, sessionId) {
  const id = nextId++;
  const msg = { id, method, params: params || {} };
  if (sessionId) msg.sessionId = sessionId;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    toChrome.write(JSON.stringify(msg) + '\0');
  });
}
function event(method) { return new Promise((resolve) => waiters.push({ method, resolve })); }

const keyCodes = { ArrowLeft: 37, ArrowUp: 38, ArrowRight: 39, ArrowDown: 40, Home: 36, End: 35, PageUp: 33, PageDown: 34 };

(async () => {
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  const s = (m, p) => send(m, p, sessionId);
  await s('Page.enable');
  await s('Runtime.enable');
  for (let p = 0; p < pairs.length; p += 2) {
    const actions = JSON.parse(fs.readFileSync(pairs[p + 1], 'utf8'));
    const loaded = event('Page.loadEventFired');
    await s('Page.navigate', { url: 'file://' + path.resolve(pairs[p]) });
    await loaded;
    for (const a of actions) {
      if (a.key) {
        const k = { key: a.key, code: a.key, windowsVirtualKeyCode: keyCodes[a.key] || 0, modifiers: a.shift ? 8 : 0 };
        await s('Input.dispatchKeyEvent', Object.assign({ type: 'rawKeyDown' }, k));
        await s('Input.dispatchKeyEvent', Object.assign({ type: 'keyUp' }, k));
      } else if (a.eval) {
        const r = await s('Runtime.evaluate', { expression: a.eval, returnByValue: true });
        if (r.exceptionDetails) die('page script error in ' + a.name + ': ' + r.exceptionDetails.text);
        process.stdout.write(a.name + '\t' + JSON.stringify(r.result.value) + '\n');
      }
    }
    if (errors.length) die(pairs[p] + ' threw: ' + errors[0].split('\n')[0]);
    if (p === 0) {
      const shotData = await s('Page.captureScreenshot', { format: 'png' });
      fs.writeFileSync(shot, Buffer.from(shotData.data, 'base64'));
    }
  }
  await send('Browser.close').catch(() => {});
  clearTimeout(timer);
  cleanup();
  process.exit(0);
})().catch((e) => die(e.message));
