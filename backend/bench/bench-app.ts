/**
 * The app as the HTTP benchmarks run it: the real AppModule listening on a free port, on a
 * fresh PostgreSQL database of its own (dropped by close()) and a scratch DATA_DIR.
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { AppModule } from '../src/app.module';
import { APP_OPTIONS, configureApp, createHttpAdapter } from '../src/bootstrap';
import { loadConfig } from '../src/config/configuration';

export const BASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const ORIGIN = 'http://localhost:3000';
/** The seller the HTTP benches create (their fill step) and sign in as. */
export const BENCH_SELLER = { email: 'benchseller@example.com', password: 'bench-password-1' };

/** Signs the bench seller in; returns the Cookie header value. */
export async function loginBenchSeller(base: string): Promise<string> {
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: ORIGIN, 'X-Requested-With': 'XMLHttpRequest' },
    body: JSON.stringify(BENCH_SELLER),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

export interface BenchApp {
  app: NestFastifyApplication;
  /** http://127.0.0.1:<port> */
  base: string;
  close(): Promise<void>;
}

/** Runs one statement on the server's maintenance database (CREATE/DROP DATABASE). */
export async function admin(sql: string) {
  const c = new Client({ connectionString: BASE_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/**
 * The app on a fresh PostgreSQL database `dbName` (dropped by close()), or with `dbName` null
 * on the embedded default (PGlite in the scratch DATA_DIR; jobs in process unless `env`
 * names a REDIS_URL).
 */
export async function startBenchApp(dbName: string | null, env: Record<string, string> = {}): Promise<BenchApp> {
  let databaseUrl: Record<string, string> = {};
  if (dbName) {
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin(`CREATE DATABASE ${dbName}`);
    const url = new URL(BASE_URL);
    url.pathname = `/${dbName}`;
    databaseUrl = { DATABASE_URL: url.toString() };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'gs-bench-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    ...databaseUrl,
    APP_URL: ORIGIN,
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
    RATE_LIMIT_PER_IP: '1000000',
    RATE_LIMIT_PER_ACCOUNT: '1000000',
    ...env,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), createHttpAdapter(config), { ...APP_OPTIONS, logger: ['error'] });
  configureApp(app);
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  return {
    app,
    base,
    async close() {
      await app.close();
      if (dbName) await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
