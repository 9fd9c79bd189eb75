import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

/** Executors: registered machines, their runs, experiments with events, worktrees, and the orphan reaper's state. */
export class Executor1732332000000 implements MigrationInterface {
  name = 'Executor1732332000000';

  async up(runner: QueryRunner): Promise<void> {
    const pg = dialectOf(runner) === 'postgres';
    const id = pg ? 'uuid' : 'varchar(36)';
    const ts = pg ? 'timestamptz' : 'datetime';
    const project = `project_id ${id} NOT NULL REFERENCES projects(id) ON DELETE CASCADE`;
    const session = `session_id ${id} REFERENCES sessions(id) ON DELETE SET NULL`;
    await runner.query(`CREATE TABLE registered_machines (
      id ${id} PRIMARY KEY NOT NULL,
      ${project},
      name text NOT NULL,
      slots integer NOT NULL,
      last_heartbeat_at ${ts} NOT NULL,
      created_at ${ts} NOT NULL
    )`);
    await runner.query('CREATE UNIQUE INDEX registered_machines_project_name_ux ON registered_machines (project_id, name)');
    await runner.query(`CREATE TABLE experiments (
      id ${id} PRIMARY KEY NOT NULL,
      ${project},
      name text NOT NULL,
      hypothesis text NOT NULL,
      status text NOT NULL,
      created_at ${ts} NOT NULL,
      updated_at ${ts} NOT NULL
    )`);
    await runner.query('CREATE INDEX experiments_project_created_ix ON experiments (project_id, created_at)');
    await runner.query(`CREATE TABLE experiment_events (
      id ${id} PRIMARY KEY NOT NULL,
      ${project},
      experiment_id ${id} NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
      kind text NOT NULL,
      body text NOT NULL,
      created_at ${ts} NOT NULL
    )`);
    await runner.query('CREATE INDEX experiment_events_experiment_ix ON experiment_events (experiment_id, created_at)');
    await runner.query(`CREATE TABLE executor_runs (
      id ${id} PRIMARY KEY NOT NULL,
      ${project},
      machine_id ${id} REFERENCES registered_machines(id) ON DELETE SET NULL,
      ${session},
      task_id ${id} REFERENCES tasks(id) ON DELETE SET NULL,
      experiment_id ${id} REFERENCES experiments(id) ON DELETE SET NULL,
      description text NOT NULL,
      status text NOT NULL,
      summary text,
      started_at ${ts} NOT NULL,
      finished_at ${ts},
      updated_at ${ts} NOT NULL
    )`);
    await runner.query('CREATE INDEX executor_runs_project_started_ix ON executor_runs (project_id, started_at)');
    await runner.query('CREATE INDEX executor_runs_status_ix ON executor_runs (status)');
    await runner.query('CREATE INDEX executor_runs_experiment_ix ON executor_runs (experiment_id)');
    await runner.query(`CREATE TABLE worktrees (
      id ${id} PRIMARY KEY NOT NULL,
      ${project},
      machine_id ${id} REFERENCES registered_machines(id) ON DELETE SET NULL,
      ${session},
      path text NOT NULL,
      branch text,
      status text NOT NULL,
      cleanup_reason text,
      created_at ${ts} NOT NULL,
      updated_at ${ts} NOT NULL
    )`);
    await runner.query('CREATE INDEX worktrees_project_status_ix ON worktrees (project_id, status)');
    await runner.query(`CREATE TABLE orphan_reapers (
      project_id ${id} PRIMARY KEY NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      enabled boolean NOT NULL,
      last_run_at ${ts},
      run_count integer NOT NULL,
      orphaned_runs_total integer NOT NULL,
      flagged_worktrees_total integer NOT NULL,
      updated_at ${ts} NOT NULL
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['orphan_reapers', 'worktrees', 'executor_runs', 'experiment_events', 'experiments', 'registered_machines']) {
      await runner.query(`DROP TABLE ${table}`);
    }
  }
}
