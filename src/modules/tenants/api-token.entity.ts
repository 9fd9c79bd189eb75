import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A bearer API token. Only its SHA-256 is stored; the token itself is shown once. */
@Entity({ name: 'api_tokens', schema: 'control' })
export class ApiTokenRecord {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column('uuid')
  tenant_id!: string;

  @Column('text')
  name!: string;

  @Column({ type: 'char', length: 64 })
  token_hash!: string;

  /** First characters, to tell tokens apart in a listing. */
  @Column('text')
  token_prefix!: string;

  @Column({ type: 'timestamptz' })
  created_at!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  revoked_at!: Date | null;
}
