import { Column, Entity, PrimaryColumn } from 'typeorm';

/** What a token may do: everything its workspace may, or only read. */
export type ApiTokenScope = 'full' | 'read';
export const API_TOKEN_SCOPES: readonly ApiTokenScope[] = ['full', 'read'];

/** A bearer API token. Only its SHA-256 is stored; the token itself is shown once. */
@Entity({ name: 'api_tokens', schema: 'control' })
export class ApiTokenRecord {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column('uuid')
  tenant_id!: string;

  /** The label its creator gave it (`default` for a workspace's first token). */
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

  /** The account that created it; null for tokens made by an operator (`tenant:create`) or before accounts. */
  @Column({ type: 'uuid', nullable: true })
  created_by!: string | null;

  /** Written at most once a minute per token (TokenUsage). */
  @Column({ type: 'timestamptz', nullable: true })
  last_used_at!: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  expires_at!: Date | null;

  @Column('text')
  scope!: ApiTokenScope;
}
