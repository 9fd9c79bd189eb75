import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';
import { TaskSource, TaskStatus } from './tasks.constants';

/** One entry of a project's task log, or a task queued for an executor. */
@Entity('tasks')
export class Task {
  @PrimaryIdColumn()
  id!: string;

  /** Insertion order (newest first without ties); assigned by the database. Not shown to clients. */
  @Column({ type: 'bigint', insert: false, update: false })
  seq!: string | number;

  @IdColumn()
  project_id!: string;

  @IdColumn({ nullable: true })
  session_id!: string | null;

  @Column('text')
  description!: string;

  @Column('text')
  status!: TaskStatus;

  @Column('text')
  source!: TaskSource;

  /** The session working on it while in_progress (kept after it finishes, as a record of who did it). */
  @IdColumn({ nullable: true })
  claimed_by!: string | null;

  @TimestampColumn({ nullable: true })
  claimed_at!: Date | null;

  @TimestampColumn()
  created_at!: Date;

  @TimestampColumn()
  updated_at!: Date;
}
