import { Column, Entity } from 'typeorm';
import { PrimaryIdColumn, IdColumn, TimestampColumn } from '../../database/columns';

/** An advisory lock of one file of a project by one session, until expires_at. */
@Entity('file_locks')
export class FileLock {
  @PrimaryIdColumn()
  id!: string;

  @IdColumn()
  project_id!: string;

  @IdColumn()
  session_id!: string;

  @Column('text')
  file_path!: string;

  @TimestampColumn()
  claimed_at!: Date;

  @TimestampColumn()
  expires_at!: Date;
}
