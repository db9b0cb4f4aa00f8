import cluster, { Worker } from 'node:cluster';
import { Logger } from '@nestjs/common';
import type { AppConfig } from './config/configuration';

/** Set in each API process the primary forks: its index, 0 for the first (config: apiProcessIndex). */
const INDEX_ENV = 'API_PROCESS_INDEX';

/** A process that dies this soon after it started listening is not restarted (it would loop). */
const MIN_UPTIME_MS = 10_000;

/**
 * The API process's place in a node of several (API_PROCESSES > 1): `first` runs what a node
 * runs once (the first admin, the queues when PROCESS_JOBS is on), the others answer HTTP only.
 * One process when there is no cluster.
 */
export function apiProcessRole(config: Pick<AppConfig, 'apiProcessIndex'>): { index: number; first: boolean; clustered: boolean } {
  const index = config.apiProcessIndex;
  if (!cluster.isWorker || index === undefined) return { index: 0, first: true, clustered: false };
  return { index, first: index === 0, clustered: true };
}

/**
 * One process's share of the node's DB_POOL_MAX connections (at least 2: one request's work
 * and the session check beside it). With PostgreSQL on the same cores, twice the statements at
 * once only lengthens each one: at 100 connections the prints list's p97.5 went from 0.6 s to
 * 1.2 s with a full pool per process, for the same requests per second.
 */
export function poolShare(poolMax: number, processes: number): number {
  return Math.max(2, Math.ceil(poolMax / processes));
}

/**
 * One API node on several cores. Node runs JavaScript on one core per process, so a single API
 * process leaves the rest of the machine to PostgreSQL and idle; the primary forks `processes`
 * copies of the API that share the listening port (the operating system hands each new
 * connection to one of them). Every piece of shared state is already in PostgreSQL and Redis
 * (sessions and their revocation, rate limits, jobs, socket.io's rooms), as with several nodes.
 *
 * The first process starts alone (it runs the migrations under their lock and creates the first
 * admin) and the others only once it listens. A process that dies later is replaced; one that
 * cannot start, or dies within MIN_UPTIME_MS of starting, stops the node with its exit code, so
 * a bad configuration fails once instead of looping. SIGTERM/SIGINT stop every process (each
 * finishes its requests and jobs through Nest's shutdown hooks) before the primary exits.
 */
export function runPrimary(processes: number): void {
  const log = new Logger('Cluster');
  const started = new Map<Worker, number>();
  let stopping = false;
  let exitCode = 0;

  const fork = (index: number): Worker => {
    const worker = cluster.fork({ [INDEX_ENV]: String(index) });
    worker.once('listening', () => {
      started.set(worker, Date.now());
      // the others wait for the first: it owns the migrations and the first admin
      if (index === 0 && Object.keys(cluster.workers ?? {}).length === 1) for (let i = 1; i < processes; i++) fork(i);
    });
    worker.once('exit', (code, signal) => {
      const since = started.get(worker);
      started.delete(worker);
      if (stopping) return;
      if (since === undefined || Date.now() - since < MIN_UPTIME_MS) {
        log.error(`API process ${index} exited (${signal ?? code}) while starting; stopping the node`);
        exitCode = typeof code === 'number' && code !== 0 ? code : 1;
        stop();
        return;
      }
      log.warn(`API process ${index} exited (${signal ?? code}); starting a new one`);
      fork(index);
    });
    return worker;
  };

  const stop = () => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && !w.isDead());
    if (!workers.length) process.exit(exitCode);
    let left = workers.length;
    for (const w of workers) {
      w.once('exit', () => {
        if (--left === 0) process.exit(exitCode);
      });
      w.process.kill('SIGTERM');
    }
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  log.log(`Starting ${processes} API processes`);
  fork(0);
}
