import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig, loadConfig } from '../config/configuration';
import { Clock } from './clock';

describe('production clock', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'gs-clock-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is the real time without the browser tests\' file, and moved by the milliseconds in it', () => {
    expect(Math.abs(new Clock().now().getTime() - Date.now())).toBeLessThan(1000);
    const file = join(dir, 'offset');
    const clock = new Clock({ shops: { e2eClockFile: file } } as AppConfig);
    expect(Math.abs(clock.now().getTime() - Date.now())).toBeLessThan(1000); // no file yet
    writeFileSync(file, String(86_400_000));
    const later = new Clock({ shops: { e2eClockFile: file } } as AppConfig);
    expect(Math.abs(later.now().getTime() - (Date.now() + 86_400_000))).toBeLessThan(1000);
  });

  it('a production server refuses the browser tests\' clock file', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), E2E_PRODUCTION_CLOCK_FILE: '/tmp/offset', DATA_DIR: dir })).toThrow(/E2E_PRODUCTION_CLOCK_FILE/);
    expect(loadConfig({ E2E_PRODUCTION_CLOCK_FILE: '/tmp/offset', DATA_DIR: dir }).shops.e2eClockFile).toBe('/tmp/offset');
  });
});
