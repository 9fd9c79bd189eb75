import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';

/** One verification of a sprint item by a session: a pass, or a failure with its note. */
@Entity('sprint_item_verifications')
export class SprintItemVerification {
  @PrimaryIdColumn()
  id!: string;

  @IdColumn()
  project_id!: string;

  @IdColumn()
  item_id!: string;

  /** The verifying session (null once it is deleted; its name stays). */
  @IdColumn({ nullable: true })
  session_id!: string | null;

  @Column('text')
  session_name!: string;

  @Column('boolean')
  passed!: boolean;

  @Column('text', { nullable: true })
  note!: string | null;

  @TimestampColumn()
  created_at!: Date;
}
