import { Column, Entity } from 'typeorm';
import { IdColumn, TimestampColumn } from '../../database/columns';

/**
 * The durable progress of one export scope (a project, or the events that
 * belong to none): everything up to watermark_seq was accepted by the
 * endpoint. A pass holds the lease while it runs.
 */
@Entity('ai_log_export_state')
export class AiLogExportState {
  @Column('text', { primary: true })
  scope!: string;

  @IdColumn({ nullable: true })
  project_id!: string | null;

  @Column('bigint')
  watermark_seq!: string;

  @Column('bigint')
  exported_count!: string;

  @IdColumn({ nullable: true })
  lease_id!: string | null;

  @TimestampColumn({ nullable: true })
  lease_until!: Date | null;

  @TimestampColumn({ nullable: true })
  last_attempt_at!: Date | null;

  @Column('text', { nullable: true })
  last_status!: string | null;

  /** JSON of the last pass's outcome. */
  @Column('text', { nullable: true })
  last_result!: string | null;
}
