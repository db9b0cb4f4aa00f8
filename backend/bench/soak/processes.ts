/**
 * The processes of the soak: a private redis-server, the compiled API and its separate
 * worker(s). Each runs in its own process group (detached) so that stopping it also stops the
 * CPU-pool children it forked; nothing here touches a process the soak did not start.
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort } from '../../test/utils/free-port';

export { freePort };

export const BACKEND = join(__dirname, '..', '..');
/**
 * The backend whose dist/ the soak runs: this one, or SOAK_APP_DIR (e.g. an export of an older
 * commit, to compare; it finds its node_modules when placed under this checkout).
 */
export const APP_DIR = resolve(process.env.SOAK_APP_DIR ?? BACKEND);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestMtime(p));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Builds backend/dist (the product's own `npm run build`) when a source file is newer than it.
 * Others may have type errors in work in progress: tsc still emits, so a failed type check is
 * reported but does not stop the soak as long as main.js and worker.js exist.
 */
export function ensureBuilt(log: (s: string) => void): string {
  const main = join(APP_DIR, 'dist', 'main.js');
  const worker = join(APP_DIR, 'dist', 'worker.js');
  const stale = !existsSync(main) || !existsSync(worker) || statSync(main).mtimeMs < newestMtime(join(APP_DIR, 'src'));
  if (!stale) return 'dist/ is up to date';
  log('building backend/dist (tsc -p tsconfig.build.json) …');
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: APP_DIR, encoding: 'utf8' });
  if (!existsSync(main) || !existsSync(worker)) throw new Error(`build failed:\n${r.stdout}${r.stderr}`);
  const note = r.status === 0 ? '' : ` (tsc reported type errors, files emitted anyway:\n${(r.stdout + r.stderr).split('\n').slice(0, 10).join('\n')})`;
  return `built dist/ in ${((Date.now() - t0) / 1000).toFixed(0)} s${note}`;
}

export interface Proc {
  name: string;
  child: ChildProcess;
  /** Resolves when the process has exited. */
  exited: Promise<number | string | null>;
}

function launch(name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv, logFile: string, ready: RegExp, timeoutMs: number): Promise<Proc> {
  const child = spawn(cmd, args, { cwd: APP_DIR, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const log = createWriteStream(logFile, { flags: 'a' });
  const exited = new Promise<number | string | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${timeoutMs} ms; see ${logFile}`)), timeoutMs);
    const onData = (d: Buffer) => {
      log.write(d);
      if (out.length < 100_000) {
        out += d.toString();
        if (ready.test(out)) {
          clearTimeout(timer);
          resolve({ name, child, exited });
        }
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      log.end();
      reject(new Error(`${name} exited (${code}) before it was ready; see ${logFile}`));
    });
  });
}

/** SIGTERM to the process group, SIGKILL after `graceMs`; resolves once the leader exited. */
export async function stopProc(p: Proc, graceMs = 10_000): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return killGroup(p, 'SIGKILL');
  killGroup(p, 'SIGTERM');
  const done = await Promise.race([p.exited.then(() => true), sleep(graceMs).then(() => false)]);
  killGroup(p, 'SIGKILL');
  if (!done) await p.exited;
}

/** Signals the process group the soak started (the process and the children it forked). */
export function killGroup(p: Proc, signal: NodeJS.Signals) {
  try {
    process.kill(-p.child.pid!, signal);
  } catch {
    // already gone
  }
}

/** A private, empty, non-persistent Redis: restarting it loses everything, on purpose. */
export function startRedis(port: number, logFile: string): Promise<Proc> {
  return launch('redis', 'redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], process.env, logFile, /Ready to accept connections/, 15_000);
}

export function startApi(env: NodeJS.ProcessEnv, logFile: string): Promise<Proc> {
  return launch('api', process.execPath, ['dist/main.js'], env, logFile, /GangSheet Studio on /, 120_000);
}

export function startWorker(name: string, env: NodeJS.ProcessEnv, logFile: string): Promise<Proc> {
  return launch(name, process.execPath, ['dist/worker.js'], env, logFile, /Worker started/, 120_000);
}
