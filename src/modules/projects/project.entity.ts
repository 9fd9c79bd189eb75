import { Column, Entity } from 'typeorm';
import { PrimaryIdColumn, IdColumn, TimestampColumn } from '../../database/columns';
import { OrganizationStatus } from './project-extras.constants';

@Entity('projects')
export class Project {
  @PrimaryIdColumn()
  id!: string;

  @Column('text')
  name!: string;

  /** The name folded for comparison; unique per tenant. */
  @Column('text')
  name_key!: string;

  @TimestampColumn()
  created_at!: Date;

  @TimestampColumn()
  updated_at!: Date;

  /** Instructions for assistants working on the project; null means Baton's defaults. Loaded only when asked for. */
  @Column('text', { nullable: true, select: false })
  agent_instructions!: string | null;

  /** Exactly one emoji, or null. */
  @Column('text', { nullable: true })
  icon!: string | null;

  @Column('text', { default: 'active' })
  organization_status!: OrganizationStatus;

  /** The parent of a subproject; a parent never has a parent itself (one level). */
  @IdColumn({ nullable: true })
  parent_id!: string | null;
}
