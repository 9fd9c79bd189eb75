import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';

/** One view of a project's document structure that saved nothing: who looked, at which project, when. */
@Entity('document_peeks')
export class DocumentPeek {
  @PrimaryIdColumn()
  id!: string;

  @IdColumn()
  project_id!: string;

  /** Who looked: the signed-in account, `token`, `mcp` or `local`. */
  @Column('text')
  viewer!: string;

  /** Through which door: rest or mcp. */
  @Column('text')
  via!: string;

  @Column('integer')
  document_count!: number;

  @TimestampColumn()
  created_at!: Date;
}
