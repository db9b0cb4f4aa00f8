import { Client } from 'pg';
import { isoTimestampSql } from '../src/common/sql';
import { BASE_DATABASE_URL } from './utils/test-env';

/**
 * isoTimestampSql reads a timestamp as the JSON text of the Date node-postgres would have
 * made of it: the lists that use it answer the same bytes as with Dates.
 */
describe('isoTimestampSql', () => {
  const db = new Client({ connectionString: BASE_DATABASE_URL });
  beforeAll(() => db.connect());
  afterAll(() => db.end());

  it('is the JSON of the parsed Date, whatever the session time zone, microseconds and odd years', async () => {
    const values = [
      '2026-11-28 11:33:09.123999+00',
      '2026-11-28 23:59:59.999999+05:30',
      '2026-03-29 01:30:00.0005-08',
      '2026-01-01 00:00:00+00',
      '1999-12-31 23:59:59.9999+00',
      '0099-01-01 00:00:00.0005+00',
      'infinity',
      '-infinity',
    ];
    for (const zone of ['UTC', 'Asia/Kolkata', 'America/Los_Angeles']) {
      await db.query(`SET TIME ZONE '${zone}'`);
      const { rows } = await db.query(
        `SELECT t AS parsed, ${isoTimestampSql('t')} AS text FROM unnest($1::timestamptz[]) t UNION ALL SELECT NULL, ${isoTimestampSql('NULL::timestamptz')}`,
        [values],
      );
      for (const r of rows) expect(JSON.stringify({ at: r.text })).toBe(JSON.stringify({ at: r.parsed }));
    }
  });
});
