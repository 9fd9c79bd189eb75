import { Column, Entity } from 'typeorm';
import { PrimaryIdColumn, TimestampColumn } from '../../database/columns';

/** The latest codebase map of a project (one row per project, replaced by each new map). */
@Entity('codebase_maps')
export class CodebaseMap {
  @PrimaryIdColumn()
  project_id!: string;

  /** The map (CodebaseMapBody) as JSON text. */
  @Column('text')
  map!: string;

  @TimestampColumn()
  created_at!: Date;
}
