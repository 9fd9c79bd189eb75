import { Column, Entity } from 'typeorm';
import { PrimaryIdColumn, TimestampColumn } from '../../database/columns';
import { WorkspaceItemStatus } from './workspace-layer.constants';

/** A checklist item of the whole workspace (cross-project work), in an optional group. */
@Entity('workspace_sprint_items')
export class WorkspaceSprintItem {
  @PrimaryIdColumn()
  id!: string;

  @Column('text')
  title!: string;

  @Column('text')
  status!: WorkspaceItemStatus;

  @Column('text', { nullable: true })
  item_group!: string | null;

  @Column('text', { nullable: true })
  notes!: string | null;

  @Column('text', { nullable: true })
  human_id!: string | null;

  @TimestampColumn()
  created_at!: Date;

  @TimestampColumn()
  updated_at!: Date;

  @TimestampColumn({ nullable: true })
  completed_at!: Date | null;
}
