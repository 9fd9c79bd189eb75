import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../database/columns';

/** The usage settings: one row (id `singleton`), written on the first PATCH /settings/usage. */
@Entity('usage_settings')
export class UsageSettingsRow {
  @PrimaryColumn('text')
  id!: string;

  @Column('integer', { nullable: true })
  compute_overage_cap_usd!: number | null;

  @Column('integer', { nullable: true })
  storage_overage_cap_gb!: number | null;

  @TimestampColumn()
  updated_at!: Date;
}
