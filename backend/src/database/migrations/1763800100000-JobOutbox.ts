import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The job outbox: a job to enqueue, written in the same transaction as the change that needs
 * it (a print's charge), so the charge and its job are one durable unit. The API enqueues it
 * right after the commit and deletes the row; if the process dies in between, the recovery
 * sweep finds the row and enqueues it. `prints.resumes` counts how often the sweep restarted
 * an attempt whose job was lost, so a print that keeps killing its process ends refunded.
 */
export class JobOutbox1763800100000 implements MigrationInterface {
  name = 'JobOutbox1763800100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE job_outbox (
        job_id varchar(200) PRIMARY KEY,
        queue varchar(50) NOT NULL,
        name varchar(100) NOT NULL,
        data jsonb NOT NULL,
        attempts integer NOT NULL DEFAULT 1,
        backoff_ms integer NOT NULL DEFAULT 1000,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`ALTER TABLE prints ADD COLUMN resumes integer NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE prints DROP COLUMN resumes`);
    await q.query(`DROP TABLE job_outbox`);
  }
}
