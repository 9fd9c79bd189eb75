import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';

/** One version of a project's goal, as people wrote it (AUTO BLOCKS stripped). */
@Entity('goal_history')
export class GoalVersion {
  @PrimaryIdColumn()
  id!: string;

  @IdColumn()
  project_id!: string;

  @Column('integer')
  version!: number;

  @Column('text')
  content!: string;

  @Column('text')
  north_star!: string;

  @Column('text')
  sprint!: string;

  @TimestampColumn()
  created_at!: Date;

  /** Moves when a minor write touches this (the current) version. */
  @TimestampColumn()
  updated_at!: Date;
}
