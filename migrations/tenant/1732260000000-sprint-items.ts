import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

export class SprintItems1732260000000 implements MigrationInterface {
  name = 'SprintItems1732260000000';

  async up(runner: QueryRunner): Promise<void> {
    const pg = dialectOf(runner) === 'postgres';
    const id = pg ? 'uuid' : 'varchar(36)';
    const ts = pg ? 'timestamptz' : 'datetime';
    await runner.query(`CREATE TABLE sprint_items (
      id ${id} PRIMARY KEY NOT NULL,
      project_id ${id} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      version text NOT NULL,
      title text NOT NULL,
      status text NOT NULL,
      item_group text,
      human_id text,
      notes text,
      depends_on ${id} REFERENCES sprint_items(id) ON DELETE SET NULL,
      failure_mode text NOT NULL,
      milestone_type text NOT NULL,
      track text,
      wave text,
      priority text NOT NULL,
      priority_rank integer NOT NULL,
      blocker_kind text,
      deferred_until ${ts},
      touches_resources text NOT NULL,
      parent_id ${id} REFERENCES sprint_items(id) ON DELETE SET NULL,
      owner text,
      required_notes integer NOT NULL,
      slug text NOT NULL,
      nickname text NOT NULL,
      sprint_name text,
      prospect_bypass integer NOT NULL,
      stall_count integer NOT NULL,
      pushed_to text,
      task_id ${id},
      claimed_at ${ts},
      completed_at ${ts},
      added_at ${ts} NOT NULL,
      claimed_by_session_id ${id} REFERENCES sessions(id) ON DELETE SET NULL,
      claimant text,
      touches_files text NOT NULL,
      locations text NOT NULL,
      prospected_at ${ts},
      updated_at ${ts} NOT NULL
    )`);
    await runner.query('CREATE UNIQUE INDEX sprint_items_project_slug_uq ON sprint_items (project_id, slug)');
    await runner.query('CREATE UNIQUE INDEX sprint_items_project_nickname_uq ON sprint_items (project_id, nickname)');
    // The next-claimable pick walks this in serving order and stops at the first item that passes the gates.
    await runner.query("CREATE INDEX sprint_items_claimable_ix ON sprint_items (project_id, priority_rank, added_at, id) WHERE status IN ('todo', 'pending')");
    await runner.query('CREATE INDEX sprint_items_project_status_ix ON sprint_items (project_id, status)');
    await runner.query('CREATE INDEX sprint_items_project_wave_ix ON sprint_items (project_id, wave)');
    await runner.query('CREATE INDEX sprint_items_depends_on_ix ON sprint_items (depends_on)');
    await runner.query('CREATE INDEX sprint_items_parent_ix ON sprint_items (parent_id)');
    await runner.query('CREATE INDEX sprint_items_claimer_ix ON sprint_items (claimed_by_session_id)');

    await runner.query(`CREATE TABLE sprint_item_resources (
      item_id ${id} NOT NULL REFERENCES sprint_items(id) ON DELETE CASCADE,
      resource text NOT NULL,
      project_id ${id} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      file_path text,
      PRIMARY KEY (item_id, resource)
    )`);
    await runner.query('CREATE INDEX sprint_item_resources_lookup_ix ON sprint_item_resources (project_id, resource)');
    await runner.query('CREATE INDEX sprint_item_resources_file_ix ON sprint_item_resources (project_id, file_path)');

    await runner.query(`CREATE TABLE sprint_tracks (
      project_id ${id} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      name text NOT NULL,
      state text NOT NULL,
      updated_at ${ts} NOT NULL,
      PRIMARY KEY (project_id, name)
    )`);

    await runner.query(`CREATE TABLE sprint_wave_summaries (
      project_id ${id} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      wave text NOT NULL,
      completed_at ${ts} NOT NULL,
      item_count integer NOT NULL,
      counts text NOT NULL,
      items text NOT NULL,
      PRIMARY KEY (project_id, wave)
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE sprint_wave_summaries');
    await runner.query('DROP TABLE sprint_tracks');
    await runner.query('DROP TABLE sprint_item_resources');
    await runner.query('DROP TABLE sprint_items');
  }
}
