#!/usr/bin/env node
/**
 * Launcher of the gangsheet command line (`npm run gangsheet -- ...`, docs/gangsheet.md "CLI"):
 * it runs the command the way the product runs its engine.
 *
 * - The compiled engine (backend/dist) when it is a build of the current sources: every
 *   source file the build compiles (src/**\/*.ts without specs) has its .js in dist, written
 *   no earlier than the source was last changed (`compiledIsCurrent`). A per-file rule, so an
 *   edit, a checkout or a pull that touches any source after the build falls back, and so
 *   does a build that failed half-way. Otherwise the sources under ts-node, with a note.
 * - In a process started with the CPU workers' environment (`cpuWorkerEnv`,
 *   src/config/configuration.ts: two malloc arenas unless MALLOC_ARENA_MAX is set). glibc
 *   reads it when the process starts, so the command runs in a child process of this one.
 *
 * Plain JavaScript: it must run before anything is compiled.
 */
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const BACKEND = path.resolve(__dirname, '..');
const SRC = path.join(BACKEND, 'src');
const DIST = path.join(BACKEND, 'dist');

/** The files tsconfig.build.json compiles: src/**\/*.ts without specs and declarations. */
function* buildSources(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* buildSources(p);
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') && !e.name.endsWith('.d.ts')) yield p;
  }
}

/** Whether `distDir` holds a build of every source file in `srcDir` that is not older than the source. */
function compiledIsCurrent(srcDir = SRC, distDir = DIST) {
  for (const file of buildSources(srcDir)) {
    const out = path.join(distDir, path.relative(srcDir, file)).replace(/\.ts$/, '.js');
    let built;
    try {
      built = fs.statSync(out).mtimeMs;
    } catch {
      return false;
    }
    if (built < fs.statSync(file).mtimeMs) return false;
  }
  return true;
}

/** The node arguments that run the command, and the environment the CPU workers get. */
function command(compiled) {
  if (compiled) {
    const { cpuWorkerEnv } = require(path.join(DIST, 'config', 'configuration.js'));
    return { args: [path.join(DIST, 'bin', 'gangsheet.js')], env: cpuWorkerEnv(process.env) };
  }
  const project = path.join(BACKEND, 'tsconfig.json');
  require('ts-node').register({ transpileOnly: true, project });
  const { cpuWorkerEnv } = require(path.join(SRC, 'config', 'configuration.ts'));
  return {
    args: ['-r', 'ts-node/register/transpile-only', path.join(SRC, 'bin', 'gangsheet.ts')],
    env: { ...cpuWorkerEnv(process.env), TS_NODE_PROJECT: project },
  };
}

if (require.main === module) {
  const compiled = compiledIsCurrent();
  if (!compiled)
    process.stderr.write('gangsheet: backend/dist is missing or older than the sources, so they run under ts-node (slower to start, more memory); `npm run build -w backend` builds the engine.\n');
  const { args, env } = command(compiled);
  const child = spawn(process.execPath, [...args, ...process.argv.slice(2)], { stdio: 'inherit', env });
  // Ctrl-C reaches the child too (same process group); pass on how it ended
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => {
    if (!signal) process.exit(code ?? 1);
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  });
}

module.exports = { compiledIsCurrent, command };
