import { Column, Entity } from 'typeorm';
import { PrimaryIdColumn, TimestampColumn } from '../../database/columns';

/** A project's own AI-log export settings (set_ai_log_export_config). Never a credential. */
@Entity('ai_log_export_configs')
export class AiLogExportConfig {
  @PrimaryIdColumn()
  project_id!: string;

  /** Used only when the operator configured no endpoint (last step of the fallback chain). */
  @Column('text', { nullable: true })
  otlp_endpoint!: string | null;

  @Column('text', { nullable: true })
  service_name!: string | null;

  /** False forces export off for this project; true never overrides the operator's switch. */
  @Column('boolean')
  enabled!: boolean;

  @TimestampColumn()
  updated_at!: Date;
}
