import { mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './configuration';

const dir = () => mkdtempSync(join(tmpdir(), 'gs-cfg-'));

describe('loadConfig', () => {
  it('runs on the embedded default with no environment', () => {
    const c = loadConfig({ DATA_DIR: dir() });
    expect(c.port).toBe(3000);
    expect(c.database.url).toBeUndefined();
    expect(c.redis.url).toBeUndefined();
    expect(c.mail.smtpUrl).toBeUndefined();
    expect(c.captcha.provider).toBe('none');
    expect(c.filesDir).toBe(join(c.dataDir, 'files'));
    expect(c.outboxDir).toBe(join(c.dataDir, 'outbox'));
    expect(c.database.pgliteDir).toBe(join(c.dataDir, 'db'));
  });

  it('runs a print per core a layout uses, and one more for another seller, unless PRINT_JOB_CONCURRENCY says otherwise', () => {
    expect(loadConfig({ DATA_DIR: dir() }).prints.jobConcurrency).toBe(Math.min(2, availableParallelism()) + 1);
    expect(loadConfig({ DATA_DIR: dir(), PRINT_JOB_CONCURRENCY: '1' }).prints.jobConcurrency).toBe(1);
  });

  it('has a CPU worker per print job and image job that may run at once unless CPU_WORKERS says otherwise', () => {
    expect(loadConfig({ DATA_DIR: dir() }).cpu.workers).toBe(Math.min(2, availableParallelism()) + 1 + 2);
    expect(loadConfig({ DATA_DIR: dir(), PRINT_JOB_CONCURRENCY: '3' }).cpu.workers).toBe(5);
    expect(loadConfig({ DATA_DIR: dir(), PRINT_JOB_CONCURRENCY: '1', IMAGE_JOB_CONCURRENCY: '1' }).cpu.workers).toBe(2);
    expect(loadConfig({ DATA_DIR: dir(), CPU_WORKERS: '1' }).cpu.workers).toBe(1);
    expect(loadConfig({ DATA_DIR: dir() }).uploads.maxPixels).toBe(16384 * 16384);
  });

  it('gives a true-shape layout two threads where there are two cores, unless PRINT_LAYOUT_THREADS says otherwise', () => {
    expect(loadConfig({ DATA_DIR: dir() }).prints.layoutThreads).toBe(Math.min(2, availableParallelism()));
    expect(loadConfig({ DATA_DIR: dir(), PRINT_LAYOUT_THREADS: '1' }).prints.layoutThreads).toBe(1);
    expect(() => loadConfig({ DATA_DIR: dir(), PRINT_LAYOUT_THREADS: '0' })).toThrow(ConfigError);
  });

  it('runs an API process per core (at most four) in production with PostgreSQL and Redis, one otherwise, unless API_PROCESSES says so', () => {
    const shared = { DATA_DIR: dir(), DATABASE_URL: 'postgres://u@db/x', REDIS_URL: 'redis://r:6379' };
    const production = { ...shared, NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) };
    expect(loadConfig({ DATA_DIR: dir() }).apiProcesses).toBe(1);
    expect(loadConfig(shared).apiProcesses).toBe(1);
    expect(loadConfig(production).apiProcesses).toBe(Math.min(4, availableParallelism()));
    expect(loadConfig({ ...production, DATABASE_URL: undefined }).apiProcesses).toBe(1);
    expect(loadConfig({ ...production, API_PROCESSES: '1' }).apiProcesses).toBe(1);
    expect(loadConfig({ ...shared, API_PROCESSES: '3' }).apiProcesses).toBe(3);
    expect(() => loadConfig({ DATA_DIR: dir(), API_PROCESSES: '2' })).toThrow(/API_PROCESSES: above 1 needs DATABASE_URL and REDIS_URL/);
    expect(() => loadConfig({ ...shared, API_PROCESSES: '0' })).toThrow(ConfigError);
    expect(loadConfig(shared).apiProcessIndex).toBeUndefined();
    expect(loadConfig({ ...shared, API_PROCESS_INDEX: '1' }).apiProcessIndex).toBe(1);
  });

  it('keeps the generated JWT secret across restarts', () => {
    const d = dir();
    expect(loadConfig({ DATA_DIR: d }).auth.jwtSecret).toBe(loadConfig({ DATA_DIR: d }).auth.jwtSecret);
  });

  it.each([
    [{ PORT: 'abc' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL: must start with postgres/],
    [{ REDIS_URL: 'http://x' }, /REDIS_URL/],
    [{ SMTP_URL: 'nope' }, /SMTP_URL/],
    [{ CAPTCHA_PROVIDER: 'hcaptcha' }, /CAPTCHA_PROVIDER/],
    [{ CAPTCHA_PROVIDER: 'recaptcha' }, /CAPTCHA_SITE_KEY, CAPTCHA_SECRET: required/],
    [{ JWT_SECRET: 'short' }, /JWT_SECRET: must be at least 32/],
    [{ NODE_ENV: 'production' }, /JWT_SECRET: required when NODE_ENV=production/],
    [{ ADMIN_EMAIL: 'a@b.co' }, /set both or neither/],
    [{ COOKIE_SECURE: 'maybe' }, /COOKIE_SECURE/],
    [{ TRUST_PROXY: 'true' }, /TRUST_PROXY/],
    [{ TRUST_PROXY: '10.0.0.0/33' }, /TRUST_PROXY/],
    [{ TRUST_PROXY: 'proxy.local' }, /TRUST_PROXY/],
    [{ ADMIN_EMAIL: 'admin', ADMIN_PASSWORD: 'secret-1' }, /ADMIN_EMAIL: Invalid email address/],
  ])('%j fails fast naming the variable', (env, message) => {
    expect(() => loadConfig({ DATA_DIR: dir(), ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir(), ...env })).toThrow(message);
  });

  it('trusts no proxy by default; TRUST_PROXY names proxies or a hop count', () => {
    expect(loadConfig({ DATA_DIR: dir() }).trustProxy).toBe(false);
    expect(loadConfig({ DATA_DIR: dir(), TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ DATA_DIR: dir(), TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ DATA_DIR: dir(), TRUST_PROXY: 'loopback, 172.28.0.10,10.0.0.0/8,::1' }).trustProxy).toEqual([
      'loopback',
      '172.28.0.10',
      '10.0.0.0/8',
      '::1',
    ]);
  });

  it('accepts the default admin address admin@localhost (the same e-mail rule as the forms)', () => {
    expect(loadConfig({ DATA_DIR: dir(), ADMIN_EMAIL: 'admin@localhost', ADMIN_PASSWORD: 'secret-1' }).admin.email).toBe('admin@localhost');
  });

  it('treats empty values as unset and adds ALLOWED_ORIGINS to the app origin', () => {
    const c = loadConfig({ DATA_DIR: dir(), DATABASE_URL: '', APP_URL: 'https://app.example.com/', ALLOWED_ORIGINS: 'https://admin.example.com' });
    expect(c.database.url).toBeUndefined();
    expect(c.appUrl).toBe('https://app.example.com');
    expect(c.allowedOrigins).toEqual(['https://app.example.com', 'https://admin.example.com']);
  });
});
