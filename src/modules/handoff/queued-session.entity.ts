import { Column, Entity } from 'typeorm';
import { PrimaryIdColumn, TimestampColumn } from '../../database/columns';

/** The goal queued for a project's next session; the next handoff carries it once. */
@Entity('queued_sessions')
export class QueuedSession {
  @PrimaryIdColumn()
  project_id!: string;

  @Column('text')
  goal!: string;

  @TimestampColumn()
  queued_at!: Date;
}
