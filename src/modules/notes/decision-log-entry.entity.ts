import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';

/** An entry of a project's decision log: append-only, unlike pinned decisions. */
@Entity('decision_log')
export class DecisionLogEntry {
  @PrimaryIdColumn()
  id!: string;

  @IdColumn()
  project_id!: string;

  @Column('text')
  title!: string;

  @Column('text')
  body!: string;

  @Column('text', { nullable: true })
  human_id!: string | null;

  @IdColumn({ nullable: true })
  session_id!: string | null;

  @TimestampColumn()
  created_at!: Date;

  /** Set when consolidation found this entry a duplicate of a later-kept one. */
  @IdColumn({ nullable: true })
  superseded_by_id!: string | null;
}
