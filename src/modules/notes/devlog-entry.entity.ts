import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';

/** An entry of a project's development log: what happened, in a sentence or a paragraph. */
@Entity('devlog')
export class DevlogEntry {
  @PrimaryIdColumn()
  id!: string;

  @IdColumn()
  project_id!: string;

  @Column('text')
  entry!: string;

  @Column('text', { nullable: true })
  human_id!: string | null;

  @IdColumn({ nullable: true })
  session_id!: string | null;

  @TimestampColumn()
  created_at!: Date;
}
