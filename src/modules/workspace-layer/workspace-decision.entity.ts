import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';
import { WorkspaceDecisionStatus } from './workspace-layer.constants';

/** A decision of the whole workspace; setting one with the title of an active one supersedes it. */
@Entity('workspace_decisions')
export class WorkspaceDecision {
  @PrimaryIdColumn()
  id!: string;

  @Column('text')
  title!: string;

  /** The title folded for comparison (case, width, spacing). */
  @Column('text')
  title_key!: string;

  @Column('text')
  body!: string;

  @Column('text')
  status!: WorkspaceDecisionStatus;

  @IdColumn({ nullable: true })
  supersedes_id!: string | null;

  @IdColumn({ nullable: true })
  superseded_by_id!: string | null;

  @TimestampColumn()
  created_at!: Date;

  @TimestampColumn()
  updated_at!: Date;
}
