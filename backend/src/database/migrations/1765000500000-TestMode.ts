import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Test mode: test API keys (`gsk_test_…`), the prints they make (free, watermarked), webhook
 * endpoints that receive only test events, and the mode of each kept event.
 *
 * - `api_keys.mode`, `webhook_endpoints.mode`: 'live' or 'test'; every existing row is live.
 * - `prints.test`: set when the print is created, never changed.
 * - `webhook_events.livemode`: the catch-up list answers a test key its test events and
 *   everyone else the live ones, so its indexes lead with the mode.
 * - `print_counts` gains `test` in its key: the prints list's totals add up every row, the
 *   dashboard only the live ones.
 */
export class TestMode1765000500000 implements MigrationInterface {
  name = 'TestMode1765000500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys ADD COLUMN mode varchar(4) NOT NULL DEFAULT 'live' CHECK (mode IN ('live', 'test'))`);
    await q.query(`ALTER TABLE webhook_endpoints ADD COLUMN mode varchar(4) NOT NULL DEFAULT 'live' CHECK (mode IN ('live', 'test'))`);
    await q.query(`ALTER TABLE prints ADD COLUMN test boolean NOT NULL DEFAULT false`);

    await q.query(`ALTER TABLE webhook_events ADD COLUMN livemode boolean NOT NULL DEFAULT true`);
    await q.query(`DROP INDEX webhook_events_user_seq`);
    await q.query(`DROP INDEX webhook_events_user_type_seq`);
    await q.query(`CREATE INDEX webhook_events_user_mode_seq ON webhook_events (user_id, livemode, seq)`);
    await q.query(`CREATE INDEX webhook_events_user_mode_type_seq ON webhook_events (user_id, livemode, type, seq)`);

    await q.query(`ALTER TABLE print_counts ADD COLUMN test boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE print_counts DROP CONSTRAINT print_counts_pkey, ADD PRIMARY KEY (user_id, status, type, test)`);
    await q.query(`
      CREATE FUNCTION print_count_bump(u uuid, s varchar, t varchar, x boolean, delta integer) RETURNS void LANGUAGE sql AS $$
        INSERT INTO print_counts (user_id, status, type, test, prints) VALUES (u, s, t, x, delta)
        ON CONFLICT (user_id, status, type, test) DO UPDATE SET prints = print_counts.prints + delta
      $$`);
    await q.query(`DROP TRIGGER prints_count ON prints`);
    await q.query(`
      CREATE OR REPLACE FUNCTION print_count() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          PERFORM print_count_bump(NEW.user_id, NEW.status, NEW.type, NEW.test, 1);
        ELSIF TG_OP = 'DELETE' THEN
          PERFORM print_count_bump(OLD.user_id, OLD.status, OLD.type, OLD.test, -1);
        ELSIF (OLD.user_id, OLD.status, OLD.type, OLD.test) IS DISTINCT FROM (NEW.user_id, NEW.status, NEW.type, NEW.test) THEN
          IF (OLD.user_id, OLD.status, OLD.type, OLD.test) < (NEW.user_id, NEW.status, NEW.type, NEW.test) THEN
            PERFORM print_count_bump(OLD.user_id, OLD.status, OLD.type, OLD.test, -1);
            PERFORM print_count_bump(NEW.user_id, NEW.status, NEW.type, NEW.test, 1);
          ELSE
            PERFORM print_count_bump(NEW.user_id, NEW.status, NEW.type, NEW.test, 1);
            PERFORM print_count_bump(OLD.user_id, OLD.status, OLD.type, OLD.test, -1);
          END IF;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER prints_count AFTER INSERT OR DELETE OR UPDATE OF user_id, status, type, test ON prints
      FOR EACH ROW EXECUTE FUNCTION print_count()`);
    await q.query(`DROP FUNCTION print_count_bump(uuid, varchar, varchar, integer)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER prints_count ON prints`);
    await q.query(`
      CREATE FUNCTION print_count_bump(u uuid, s varchar, t varchar, delta integer) RETURNS void LANGUAGE sql AS $$
        INSERT INTO print_counts (user_id, status, type, prints) VALUES (u, s, t, delta)
        ON CONFLICT (user_id, status, type) DO UPDATE SET prints = print_counts.prints + delta
      $$`);
    await q.query(`
      CREATE OR REPLACE FUNCTION print_count() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          PERFORM print_count_bump(NEW.user_id, NEW.status, NEW.type, 1);
        ELSIF TG_OP = 'DELETE' THEN
          PERFORM print_count_bump(OLD.user_id, OLD.status, OLD.type, -1);
        ELSIF (OLD.user_id, OLD.status, OLD.type) IS DISTINCT FROM (NEW.user_id, NEW.status, NEW.type) THEN
          IF (OLD.user_id, OLD.status, OLD.type) < (NEW.user_id, NEW.status, NEW.type) THEN
            PERFORM print_count_bump(OLD.user_id, OLD.status, OLD.type, -1);
            PERFORM print_count_bump(NEW.user_id, NEW.status, NEW.type, 1);
          ELSE
            PERFORM print_count_bump(NEW.user_id, NEW.status, NEW.type, 1);
            PERFORM print_count_bump(OLD.user_id, OLD.status, OLD.type, -1);
          END IF;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`DROP FUNCTION print_count_bump(uuid, varchar, varchar, boolean, integer)`);
    // the test rows fold into the live ones of the same key
    await q.query(`
      CREATE TEMP TABLE print_counts_merged AS
        SELECT user_id, status, type, sum(prints)::int AS prints FROM print_counts GROUP BY 1, 2, 3`);
    await q.query(`DELETE FROM print_counts`);
    await q.query(`ALTER TABLE print_counts DROP CONSTRAINT print_counts_pkey, DROP COLUMN test, ADD PRIMARY KEY (user_id, status, type)`);
    await q.query(`INSERT INTO print_counts (user_id, status, type, prints) SELECT user_id, status, type, prints FROM print_counts_merged`);
    await q.query(`DROP TABLE print_counts_merged`);
    await q.query(`
      CREATE TRIGGER prints_count AFTER INSERT OR DELETE OR UPDATE OF user_id, status, type ON prints
      FOR EACH ROW EXECUTE FUNCTION print_count()`);

    await q.query(`DROP INDEX webhook_events_user_mode_type_seq`);
    await q.query(`DROP INDEX webhook_events_user_mode_seq`);
    await q.query(`CREATE INDEX webhook_events_user_seq ON webhook_events (user_id, seq)`);
    await q.query(`CREATE INDEX webhook_events_user_type_seq ON webhook_events (user_id, type, seq)`);
    await q.query(`ALTER TABLE webhook_events DROP COLUMN livemode`);
    await q.query(`ALTER TABLE prints DROP COLUMN test`);
    await q.query(`ALTER TABLE webhook_endpoints DROP COLUMN mode`);
    await q.query(`ALTER TABLE api_keys DROP COLUMN mode`);
  }
}
