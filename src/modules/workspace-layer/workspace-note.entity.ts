import { Column, Entity } from 'typeorm';
import { PrimaryIdColumn, TimestampColumn } from '../../database/columns';

/** A note of the whole workspace, shown at the head of every project's context block. */
@Entity('workspace_notes')
export class WorkspaceNote {
  @PrimaryIdColumn()
  id!: string;

  @Column('text')
  title!: string;

  @Column('text')
  body!: string;

  /** JSON array of lowercase tags, stored as text. */
  @Column('text')
  tags!: string;

  @TimestampColumn()
  created_at!: Date;

  @TimestampColumn()
  updated_at!: Date;
}
