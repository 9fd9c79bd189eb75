import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';

/** The Baton session started for an assistant's own session (its hook `session_id`). */
@Entity('hook_sessions')
export class HookSession {
  @PrimaryIdColumn()
  id!: string;

  @IdColumn()
  project_id!: string;

  @Column('text')
  assistant_session_id!: string;

  @IdColumn()
  session_id!: string;

  @TimestampColumn()
  created_at!: Date;

  @TimestampColumn()
  updated_at!: Date;
}
