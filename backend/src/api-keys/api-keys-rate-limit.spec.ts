import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfig } from '../config/configuration';
import { ApiKeysService } from './api-keys.service';

/**
 * The embedded default (no REDIS_URL) counts each key's requests in memory; with Redis the
 * same limits are checked in test/api-keys.e2e-spec.ts.
 */
describe('API key rate limit without Redis', () => {
  let keys: ApiKeysService;

  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
    const config = loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'gs-keys-')), API_KEY_RATE_LIMIT: '3', API_KEY_RATE_WINDOW_SECONDS: '60' });
    // rateLimit never reads the database.
    keys = new ApiKeysService({} as DataSource, config);
  });
  afterEach(async () => {
    await keys.onModuleDestroy();
    jest.useRealTimers();
  });

  it('allows the limit per window, counting down; the next request and the key for one window are refused; other keys go on', async () => {
    for (const remaining of [2, 1, 0]) expect(await keys.rateLimit('key-a')).toEqual({ limit: 3, remaining, resetSeconds: 60, allowed: true });
    expect(await keys.rateLimit('key-a')).toEqual({ limit: 3, remaining: 0, resetSeconds: 60, allowed: false });
    expect(await keys.rateLimit('key-b')).toEqual({ limit: 3, remaining: 2, resetSeconds: 60, allowed: true });

    jest.setSystemTime(Date.now() + 45_000);
    expect(await keys.rateLimit('key-a')).toMatchObject({ allowed: false, resetSeconds: 15 });

    jest.setSystemTime(Date.now() + 15_000);
    expect(await keys.rateLimit('key-a')).toMatchObject({ allowed: true, remaining: 2 });
  });
});
