import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';

/** An editable markdown file of a project (CLAUDE.md, AGENTS.md, ...), kept in the tenant's database. */
@Entity('project_files')
export class ProjectFile {
  @PrimaryIdColumn()
  id!: string;

  @IdColumn()
  project_id!: string;

  @Column('text')
  filename!: string;

  /** The name lowercased: one file per name whatever its case. */
  @Column('text')
  filename_key!: string;

  @Column('text')
  content!: string;

  @TimestampColumn()
  created_at!: Date;

  @TimestampColumn()
  updated_at!: Date;
}
