import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';
import { GoalMode } from './goals.constants';

/** The current goal of a project (one row per project; version 0 until the first write). */
@Entity('goals')
export class Goal {
  @PrimaryIdColumn()
  id!: string;

  @IdColumn()
  project_id!: string;

  /** Free text; may hold AUTO BLOCKS (see auto-block.util.ts). */
  @Column('text')
  content!: string;

  @Column('text')
  north_star!: string;

  /** Who set the north star last, when they said. */
  @Column('text', { nullable: true })
  north_star_by!: string | null;

  @Column('text')
  sprint!: string;

  @Column('integer')
  version!: number;

  @Column('text')
  mode!: GoalMode;

  @TimestampColumn()
  created_at!: Date;

  @TimestampColumn()
  updated_at!: Date;
}
