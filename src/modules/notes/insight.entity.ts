import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';
import { InsightHorizon } from './notes.constants';

/** Something learned about a project, with how long it is expected to hold. */
@Entity('insights')
export class Insight {
  @PrimaryIdColumn()
  id!: string;

  @IdColumn()
  project_id!: string;

  @Column('text')
  title!: string;

  @Column('text')
  body!: string;

  @Column('text')
  horizon!: InsightHorizon;

  @TimestampColumn()
  created_at!: Date;
}
