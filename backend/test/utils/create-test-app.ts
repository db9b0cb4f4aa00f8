import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { AppModule } from '../../src/app.module';
import { APP_OPTIONS, configureApp, createHttpAdapter, initApp } from '../../src/bootstrap';
import { AppConfig, loadConfig } from '../../src/config/configuration';
import { UsersService } from '../../src/users/users.service';
import { MailCatcher } from './mail-catcher';
import { ResponseContract } from './response-contract';
import { createTestDatabase, REDIS_URL } from './test-env';

export const ORIGIN = 'http://localhost:3000';
export const ADMIN = { email: 'admin@test.local', password: 'admin-password-1' };

export interface TestApp {
  app: NestFastifyApplication;
  config: AppConfig;
  mail: MailCatcher;
  /** A supertest agent that keeps cookies, sends our Origin and the X-Requested-With header. */
  agent(): TestAgent;
  /** What the app answered that breaks docs/openapi.json; close() fails the suite when anything does. */
  contract: ResponseContract;
  close(): Promise<void>;
}

/**
 * Boots the real AppModule exactly as main.ts configures it, on a fresh PostgreSQL
 * database, real Redis (own queue prefix) and a real SMTP catcher.
 */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const db = await createTestDatabase();
  const mail = await new MailCatcher().start();
  const dataDir = mkdtempSync(join(tmpdir(), 'gs-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATABASE_URL: db.url,
    REDIS_URL,
    QUEUE_PREFIX: `gs_test_${process.pid}_${Date.now()}`,
    SMTP_URL: mail.url,
    APP_URL: ORIGIN,
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    // Every request of a test comes from 127.0.0.1; the rate-limit test sets its own limits.
    RATE_LIMIT_PER_IP: '10000',
    RATE_LIMIT_PER_ACCOUNT: '1000',
    ...env,
  });
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(config)] }).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(createHttpAdapter(config), { ...APP_OPTIONS, logger: ['error'] });
  // Every response of every e2e suite is checked against docs/openapi.json.
  const contract = new ResponseContract();
  contract.watch(app.getHttpAdapter().getInstance());
  configureApp(app);
  await initApp(app);
  await app.get(UsersService).ensureFirstAdmin();
  const server = app.getHttpServer();
  return {
    app,
    config,
    mail,
    agent: () => {
      const a = request.agent(server);
      a.set('Origin', ORIGIN).set('X-Requested-With', 'XMLHttpRequest');
      return a;
    },
    contract,
    close: async () => {
      await app.close();
      await mail.stop();
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
      if (process.env.RESPONSE_CONTRACT === 'report') console.log([...new Set(contract.violations)].join('\n'));
      contract.assertClean();
    },
  };
}

/** Registers, verifies through the captured mail and logs in; returns the signed-in agent. */
export async function signUpAndLogin(t: TestApp, name: string, password = 'password-123') {
  const a = t.agent();
  const email = `${name}@example.com`;
  await a
    .post('/api/register')
    .send({ firstName: 'Test', lastName: 'Seller', username: name, email, password })
    .expect(201);
  const mail = await t.mail.waitFor(email, /Verify/);
  const token = mail.text.match(/\/verify\?token=([A-Za-z0-9_-]+)/)![1];
  await a.get(`/api/verify?token=${token}`).expect(200);
  const res = await a.post('/api/login').send({ email, password }).expect(200);
  return { agent: a, user: res.body.data as { _id: string; email: string; username: string }, email, password };
}

export async function adminAgent(t: TestApp) {
  const a = t.agent();
  await a.post('/api/login').send(ADMIN).expect(200);
  return a;
}
