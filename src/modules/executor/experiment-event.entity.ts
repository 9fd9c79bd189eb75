import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';

/** Something that happened in an experiment (an observation, a metric, a change of plan). */
@Entity('experiment_events')
export class ExperimentEvent {
  @PrimaryIdColumn()
  id!: string;

  @IdColumn()
  project_id!: string;

  @IdColumn()
  experiment_id!: string;

  @Column('text')
  kind!: string;

  @Column('text')
  body!: string;

  @TimestampColumn()
  created_at!: Date;
}
