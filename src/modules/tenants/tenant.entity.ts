import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A hosted tenant (a workspace), in the control schema. */
@Entity({ name: 'tenants', schema: 'control' })
export class TenantRecord {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column('text')
  name!: string;

  @Column('text')
  schema_name!: string;

  @Column('text', { nullable: true })
  role_name!: string | null;

  /** The tenant's own database URL, sealed with the service secret. Never returned. */
  @Column('text', { nullable: true })
  db_url_sealed!: string | null;

  /** The key (`host:port/database`) of the server holding the tenant's schema; null: the control plane's database. */
  @Column('text', { nullable: true })
  db_server!: string | null;

  /** The server (key) `npm run tenant:move` is copying the tenant to while the move runs; null otherwise. */
  @Column('text', { nullable: true })
  moving_to!: string | null;

  /** Last tenant migration applied to the tenant's schema or database. */
  @Column('text', { nullable: true })
  migrated_to!: string | null;

  @Column('text')
  status!: string;

  @Column({ type: 'timestamptz' })
  created_at!: Date;

  @Column({ type: 'timestamptz' })
  updated_at!: Date;
}
