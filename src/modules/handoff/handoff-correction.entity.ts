import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';

/** A corrective handoff recorded for a blocked executor session: what to do differently. */
@Entity('handoff_corrections')
export class HandoffCorrection {
  @PrimaryIdColumn()
  id!: string;

  @IdColumn()
  project_id!: string;

  @IdColumn({ nullable: true })
  session_id!: string | null;

  @Column('text')
  summary!: string;

  @Column('text')
  content!: string;

  @TimestampColumn()
  created_at!: Date;
}
