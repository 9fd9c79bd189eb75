import { Column, Entity } from 'typeorm';
import { PrimaryIdColumn, IdColumn, TimestampColumn } from '../../database/columns';

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
}
