/**
 * Does the time of an answer tell who has an account? Times POST /api/forgot-password and
 * POST /api/register for an existing e-mail and for an unknown one, on the real app
 * (fresh PostgreSQL database, Redis, a real SMTP server from the test utils that takes
 * SMTP_DELAY_MS to accept each message, like a remote mail server would), sequentially,
 * alternating the two cases. Prints a Markdown table with medians and the ratio
 * existing/unknown (1.00 = indistinguishable).
 *
  *   npm run bench:auth   (BENCH_N=200, SMTP_DELAY_MS=20)
 */
import 'reflect-metadata';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module';
import { hashPassword } from '../src/common/password';
import { APP_OPTIONS, configureApp, createHttpAdapter, initApp } from '../src/bootstrap';
import { loadConfig } from '../src/config/configuration';
import { MailCatcher } from '../test/utils/mail-catcher';
import { createTestDatabase, REDIS_URL } from '../test/utils/test-env';

const N = Number(process.env.BENCH_N ?? 200);
const SMTP_DELAY_MS = Number(process.env.SMTP_DELAY_MS ?? 20);
const ORIGIN = 'http://localhost:3000';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];

async function main() {
  const db = await createTestDatabase();
  const mail = await new MailCatcher().start();
  // A mail server that takes a moment per message, as a real one does.
  const server = (mail as any).server;
  const onData = server.options.onData;
  server.options.onData = (stream: any, session: any, cb: any) => setTimeout(() => onData(stream, session, cb), SMTP_DELAY_MS);
  const dataDir = mkdtempSync(join(tmpdir(), 'gs-bench-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATABASE_URL: db.url,
    REDIS_URL,
    QUEUE_PREFIX: `gs_bench_${process.pid}`,
    SMTP_URL: mail.url,
    APP_URL: ORIGIN,
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
    RATE_LIMIT_PER_IP: '1000000',
    RATE_LIMIT_PER_ACCOUNT: '1000000',
  });
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(config)] }).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(createHttpAdapter(config), { ...APP_OPTIONS, logger: ['error'] });
  configureApp(app);
  await initApp(app);
  const ds = app.get(DataSource);
  await ds.query(
    `INSERT INTO users (first_name, last_name, username, email, password_hash, email_verified_at) VALUES ('Bench', 'User', 'bench', 'bench@example.com', $1, now())`,
    [await hashPassword('bench-password-1')],
  );
  const http = app.getHttpServer();
  const post = async (path: string, body: object) => {
    const t0 = process.hrtime.bigint();
    const res = await request(http).post(path).set('Origin', ORIGIN).send(body);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    return { ms, status: res.status };
  };

  const rows: string[] = [];
  const measure = async (label: string, existing: (i: number) => Promise<{ ms: number; status: number }>, unknown: (i: number) => Promise<{ ms: number; status: number }>) => {
    const a: number[] = [];
    const b: number[] = [];
    const statuses = new Set<string>();
    for (let i = 0; i < N; i++) {
      const x = await existing(i);
      const y = await unknown(i);
      a.push(x.ms);
      b.push(y.ms);
      statuses.add(`${x.status}/${y.status}`);
    }
    rows.push(
      `| ${label} | ${median(a).toFixed(2)} | ${median(b).toFixed(2)} | ${(median(a) / median(b)).toFixed(2)} | ${p90(a).toFixed(2)} | ${p90(b).toFixed(2)} | ${[...statuses].join(', ')} |`,
    );
  };
  // Warm-up (bcrypt dummy hash, pools, JIT).
  for (let i = 0; i < 5; i++) await post('/api/forgot-password', { email: `warm${i}@example.com` });
  await measure(
    'POST /forgot-password',
    () => post('/api/forgot-password', { email: 'bench@example.com' }),
    (i) => post('/api/forgot-password', { email: `nobody${i}@example.com` }),
  );
  await measure(
    'POST /register',
    (i) => post('/api/register', { firstName: 'Bench', lastName: 'User', username: `taken${i}`, email: 'bench@example.com', password: 'password-1' }),
    (i) => post('/api/register', { firstName: 'Bench', lastName: 'User', username: `fresh${i}`, email: `fresh${i}@example.com`, password: 'password-1' }),
  );
  console.log(`\nN=${N} sequential pairs, SMTP accepts each message after ${SMTP_DELAY_MS} ms\n`);
  console.log('| request | existing p50 ms | unknown p50 ms | ratio | existing p90 | unknown p90 | status existing/unknown |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
  // Let the background mails finish before tearing down.
  await new Promise((r) => setTimeout(r, 2000));
  await app.close();
  await mail.stop();
  await db.drop();
  rmSync(dataDir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
