#!/usr/bin/env node
/**
 * `npm start` (and `npm run start:worker` with the argument `worker`): builds what is out of
 * date, then runs the compiled server (or worker) in this process.
 *
 * The first start of a fresh clone builds both the UI (vite) and the API (tsc), minutes on
 * two cores; a restart with nothing changed skips both and takes seconds. Out of date means:
 * - the API: some source file has no compiled file in backend/dist, or an older one
 *   (`compiledIsCurrent`, shared with the command line's launcher);
 * - the UI: frontend/dist/index.html (written last by a build) is older than a file under
 *   frontend/src or public, or frontend's index.html, configuration or package.json;
 * - either: package-lock.json changed after the build (dependencies moved).
 *
 * Plain JavaScript: it must run before anything is compiled.
 */
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { compiledIsCurrent } = require('./gangsheet');

const ROOT = path.resolve(__dirname, '..', '..');

function mtime(p) {
  try {
    return fs.statSync(p).mtimeMs;
  } catch {
    return -1;
  }
}

/** The newest modification time of a file or of the files under a folder (-1 if none). */
function newest(p) {
  let st;
  try {
    st = fs.statSync(p);
  } catch {
    return -1;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let t = -1;
  for (const e of fs.readdirSync(p)) t = Math.max(t, newest(path.join(p, e)));
  return t;
}

function uiIsCurrent(root = ROOT) {
  const frontend = path.join(root, 'frontend');
  const built = mtime(path.join(frontend, 'dist', 'index.html'));
  const inputs = ['src', 'public', 'index.html', 'vite.config.ts', 'tsconfig.json', 'package.json'].map((f) => path.join(frontend, f));
  return built >= 0 && inputs.every((f) => newest(f) <= built) && mtime(path.join(root, 'package-lock.json')) <= built;
}

function apiIsCurrent(root = ROOT) {
  const backend = path.join(root, 'backend');
  const built = mtime(path.join(backend, 'dist', 'main.js'));
  return built >= 0 && compiledIsCurrent(path.join(backend, 'src'), path.join(backend, 'dist')) && mtime(path.join(root, 'package-lock.json')) <= built;
}

function build(workspace) {
  process.stderr.write(`start: building ${workspace} (its build is missing or older than its sources)\n`);
  execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build', '-w', workspace], { cwd: ROOT, stdio: 'inherit' });
}

if (require.main === module) {
  const worker = process.argv[2] === 'worker';
  if (!worker && !uiIsCurrent()) build('frontend');
  if (!apiIsCurrent()) build('backend');
  require(path.join(ROOT, 'backend', 'dist', worker ? 'worker.js' : 'main.js'));
}

module.exports = { uiIsCurrent, apiIsCurrent };
