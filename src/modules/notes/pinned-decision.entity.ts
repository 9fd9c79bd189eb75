import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';
import { PinnedDecisionStatus } from './notes.constants';

/**
 * A decision pinned to a project's context. Superseding keeps the old one
 * (status superseded) linked both ways to its successor.
 */
@Entity('pinned_decisions')
export class PinnedDecision {
  @PrimaryIdColumn()
  id!: string;

  @IdColumn()
  project_id!: string;

  @Column('text')
  title!: string;

  @Column('text')
  body!: string;

  @Column('text')
  status!: PinnedDecisionStatus;

  @IdColumn({ nullable: true })
  supersedes_id!: string | null;

  @IdColumn({ nullable: true })
  superseded_by_id!: string | null;

  @Column('text', { nullable: true })
  human_id!: string | null;

  @TimestampColumn()
  created_at!: Date;

  @TimestampColumn()
  updated_at!: Date;

  @TimestampColumn({ nullable: true })
  archived_at!: Date | null;
}
