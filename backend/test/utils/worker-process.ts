import { ChildProcess, spawn } from 'child_process';
import { join } from 'path';
import type { TestApp } from './create-test-app';

/**
 * Starts `src/worker.ts` as its own process on the same database, Redis prefix, data folder
 * and mail server as the test app, and resolves once it says "Worker started".
 */
export function startWorkerProcess(t: TestApp, name = 'worker', extraEnv: Record<string, string> = {}): Promise<ChildProcess> {
  const c = t.config;
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/worker.ts'], {
    cwd: join(__dirname, '../..'),
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      DATA_DIR: c.dataDir,
      DATABASE_URL: c.database.url,
      REDIS_URL: c.redis.url,
      QUEUE_PREFIX: c.redis.prefix,
      SMTP_URL: c.mail.smtpUrl,
      APP_URL: c.appUrl,
      JWT_SECRET: c.auth.jwtSecret,
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes('Worker started')) resolve(child);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code, signal) => reject(new Error(`${name} exited (${code ?? signal}) before starting:\n${out}`)));
  });
}
