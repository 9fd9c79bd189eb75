import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every tool call writes a row of ai_log_events, so each index costs every
 * call. The unique index on the random event id (never queried; ids are random
 * UUIDs) and the index on occurred_at alone (used only by workspace-wide purges
 * and exports, which are rare) are dropped; project, export-order and session
 * lookups keep theirs.
 */
export class AiLogLeanIndexes1732290100000 implements MigrationInterface {
  name = 'AiLogLeanIndexes1732290100000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX ai_log_events_id_uq');
    await runner.query('DROP INDEX ai_log_events_time_ix');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('CREATE INDEX ai_log_events_time_ix ON ai_log_events (occurred_at)');
    await runner.query('CREATE UNIQUE INDEX ai_log_events_id_uq ON ai_log_events (id)');
  }
}
