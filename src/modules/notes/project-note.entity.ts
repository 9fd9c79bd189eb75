import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';

/** A note of a project: title, markdown body, tags. */
@Entity('project_notes')
export class ProjectNote {
  @PrimaryIdColumn()
  id!: string;

  @IdColumn()
  project_id!: string;

  @Column('text')
  title!: string;

  @Column('text')
  body!: string;

  /** JSON array of lowercase tags (see TagsRules), stored as text. */
  @Column('text')
  tags!: string;

  @TimestampColumn()
  created_at!: Date;

  @TimestampColumn()
  updated_at!: Date;
}
