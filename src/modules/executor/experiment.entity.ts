import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';
import { ExperimentStatus } from './executor.constants';

/** An experiment an executor carries out: a hypothesis, its events and its runs. */
@Entity('experiments')
export class Experiment {
  @PrimaryIdColumn()
  id!: string;

  @IdColumn()
  project_id!: string;

  @Column('text')
  name!: string;

  @Column('text')
  hypothesis!: string;

  @Column('text')
  status!: ExperimentStatus;

  @TimestampColumn()
  created_at!: Date;

  @TimestampColumn()
  updated_at!: Date;
}
