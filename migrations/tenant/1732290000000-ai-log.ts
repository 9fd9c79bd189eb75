import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

/**
 * The AI-log: `ai_log_events` (every session start, MCP tool call and handoff
 * correction), the per-project export settings, and the durable export
 * watermark of each export scope.
 */
export class AiLog1732290000000 implements MigrationInterface {
  name = 'AiLog1732290000000';

  async up(runner: QueryRunner): Promise<void> {
    const pg = dialectOf(runner) === 'postgres';
    const id = pg ? 'uuid' : 'varchar(36)';
    const ts = pg ? 'timestamptz' : 'datetime';
    // seq orders the events for export; AUTOINCREMENT (SQLite) and an identity (Postgres)
    // never hand out a number twice, even after the newest events were purged.
    const seq = pg ? 'seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY' : 'seq integer PRIMARY KEY AUTOINCREMENT NOT NULL';
    await runner.query(`CREATE TABLE ai_log_events (
      ${seq},
      id ${id} NOT NULL,
      kind text NOT NULL,
      project_id ${id} REFERENCES projects(id) ON DELETE CASCADE,
      session_id ${id},
      tool text,
      outcome text,
      error_code text,
      duration_ms ${pg ? 'double precision' : 'real'},
      summary text NOT NULL,
      data text NOT NULL,
      occurred_at ${ts} NOT NULL
    )`);
    await runner.query('CREATE UNIQUE INDEX ai_log_events_id_uq ON ai_log_events (id)');
    await runner.query('CREATE INDEX ai_log_events_project_time_ix ON ai_log_events (project_id, occurred_at)');
    await runner.query('CREATE INDEX ai_log_events_project_seq_ix ON ai_log_events (project_id, seq)');
    await runner.query('CREATE INDEX ai_log_events_session_time_ix ON ai_log_events (session_id, occurred_at)');
    await runner.query('CREATE INDEX ai_log_events_time_ix ON ai_log_events (occurred_at)');

    await runner.query(`CREATE TABLE ai_log_export_configs (
      project_id ${id} PRIMARY KEY NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      otlp_endpoint text,
      service_name text,
      enabled boolean NOT NULL,
      updated_at ${ts} NOT NULL
    )`);

    // scope: "project:<id>" or "unattributed" (events that belong to no project).
    await runner.query(`CREATE TABLE ai_log_export_state (
      scope text PRIMARY KEY NOT NULL,
      project_id ${id} REFERENCES projects(id) ON DELETE CASCADE,
      watermark_seq bigint NOT NULL,
      exported_count bigint NOT NULL,
      lease_id ${id},
      lease_until ${ts},
      last_attempt_at ${ts},
      last_status text,
      last_result text
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE ai_log_export_state');
    await runner.query('DROP TABLE ai_log_export_configs');
    await runner.query('DROP TABLE ai_log_events');
  }
}
