import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A person's connection to the code host (spec §5 flow 2): the access token the code host gave for
 * one of its accounts, sealed at rest (SecretBox, purpose `codehost-token`), never logged or
 * returned. One per Baton account and code-host login (case-insensitive, as code hosts treat them).
 */
@Entity({ name: 'codehost_connections', schema: 'control' })
export class CodehostConnection {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column('uuid')
  account_id!: string;

  @Column('text')
  account_login!: string;

  /** Granted scopes, space-separated. */
  @Column('text')
  scopes!: string;

  @Column('text')
  token_sealed!: string;

  @Column({ type: 'timestamptz' })
  created_at!: Date;

  @Column({ type: 'timestamptz' })
  updated_at!: Date;
}
