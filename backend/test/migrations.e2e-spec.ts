import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfig } from '../src/config/configuration';
import { dataSourceOptions } from '../src/database/data-source-options';
import { runMigrations } from '../src/database/migrate';
import { createTestDatabase } from './utils/test-env';

const MIGRATIONS = readdirSync(join(__dirname, '../src/database/migrations')).filter((f) => f.endsWith('.ts')).length;

describe('migrations at start (PostgreSQL)', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  const sources: DataSource[] = [];
  beforeAll(async () => {
    db = await createTestDatabase({ empty: true });
  });
  afterAll(async () => {
    await Promise.all(sources.map((s) => s.destroy()));
    await db.drop();
  });

  it('three nodes starting at once on an empty database migrate it exactly once', async () => {
    const options = dataSourceOptions(loadConfig({ NODE_ENV: 'test', DATABASE_URL: db.url, JWT_SECRET: 'x'.repeat(40) }));
    for (let i = 0; i < 3; i++) sources.push(new DataSource(options));
    await Promise.all(
      sources.map(async (s) => {
        await s.initialize();
        await runMigrations(s, { locked: true });
      }),
    );
    const rows: { name: string }[] = await sources[0].query('SELECT name FROM migrations ORDER BY id');
    expect(rows).toHaveLength(MIGRATIONS);
    expect(new Set(rows.map((r) => r.name)).size).toBe(MIGRATIONS);
    for (const s of sources) expect(await s.showMigrations()).toBe(false);
  });
});
