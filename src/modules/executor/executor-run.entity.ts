import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';
import { RunStatus } from './executor.constants';

/** One run of an executor on a machine: a queued task it took, or work it started itself. */
@Entity('executor_runs')
export class ExecutorRun {
  @PrimaryIdColumn()
  id!: string;

  @IdColumn()
  project_id!: string;

  @IdColumn({ nullable: true })
  machine_id!: string | null;

  @IdColumn({ nullable: true })
  session_id!: string | null;

  @IdColumn({ nullable: true })
  task_id!: string | null;

  @IdColumn({ nullable: true })
  experiment_id!: string | null;

  @Column('text')
  description!: string;

  @Column('text')
  status!: RunStatus;

  @Column({ type: 'text', nullable: true })
  summary!: string | null;

  /** executor_config.test_command of the project when the run started: the command the executor runs to test its work. */
  @Column({ type: 'text', nullable: true })
  test_command!: string | null;

  @TimestampColumn()
  started_at!: Date;

  @TimestampColumn({ nullable: true })
  finished_at!: Date | null;

  @TimestampColumn()
  updated_at!: Date;
}
