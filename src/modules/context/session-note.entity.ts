import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';

/** One entry of a session's scratch pad: what the session wants to remember or pass on. */
@Entity('session_notes')
export class SessionNote {
  @PrimaryIdColumn()
  id!: string;

  @IdColumn()
  project_id!: string;

  @IdColumn()
  session_id!: string;

  @Column('text')
  body!: string;

  @TimestampColumn()
  created_at!: Date;
}
