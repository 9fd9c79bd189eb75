import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';
import { ProposalStatus } from './proposals.constants';

/** A cross-project idea of the workspace's people; never claimable, promoted into a project's sprint item. */
@Entity('workspace_proposals')
export class WorkspaceProposal {
  @PrimaryIdColumn()
  id!: string;

  @Column('text')
  title!: string;

  @Column('text')
  body!: string;

  @Column('text')
  status!: ProposalStatus;

  @Column('text', { nullable: true })
  human_id!: string | null;

  @IdColumn({ nullable: true })
  sprint_item_id!: string | null;

  @IdColumn({ nullable: true })
  promoted_project_id!: string | null;

  @TimestampColumn()
  created_at!: Date;

  @TimestampColumn()
  updated_at!: Date;

  @TimestampColumn({ nullable: true })
  promoted_at!: Date | null;
}
