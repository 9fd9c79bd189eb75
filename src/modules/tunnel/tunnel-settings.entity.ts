import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../database/columns';

/** The workspace's tunnel settings: one row (id `singleton`); the lists are JSON text. */
@Entity('tunnel_settings')
export class TunnelSettingsRow {
  @PrimaryColumn('text')
  id!: string;

  @Column('text')
  filesystem_roots!: string;

  @Column('text')
  plugin_overrides!: string;

  @Column('text')
  custom_plugins!: string;

  @Column('text', { nullable: true })
  active_repo!: string | null;

  @TimestampColumn()
  updated_at!: Date;
}
