import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every change to a user row and every ended session is announced on the `gs_auth` channel,
 * whichever node or statement made it (raw SQL credit updates included). API nodes that reuse
 * checked sessions for a few seconds (session/session-cache.ts) drop what a notification names.
 */
export class SessionChangeNotify1764000500000 implements MigrationInterface {
  name = 'SessionChangeNotify1764000500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION gs_notify_auth() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('gs_auth', CASE TG_TABLE_NAME WHEN 'users' THEN 'u:' ELSE 's:' END || OLD.id::text);
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER users_notify_auth AFTER UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION gs_notify_auth()`);
    await q.query(`CREATE TRIGGER sessions_notify_auth AFTER DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION gs_notify_auth()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER sessions_notify_auth ON sessions`);
    await q.query(`DROP TRIGGER users_notify_auth ON users`);
    await q.query(`DROP FUNCTION gs_notify_auth()`);
  }
}
