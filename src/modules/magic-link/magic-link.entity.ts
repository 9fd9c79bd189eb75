import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A magic sign-in link that was sent: single use, short-lived. Only the SHA-256 of its token is stored. */
@Entity({ name: 'magic_links', schema: 'control' })
export class MagicLinkRecord {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'char', length: 64 })
  token_hash!: string;

  /** The address the link was sent to, trimmed and in lower case: the person it signs in. */
  @Column('text')
  email!: string;

  /** Where to go once signed in: a same-origin path, or null for SERVICE_AFTER_LOGIN_URL. */
  @Column('text', { nullable: true })
  next!: string | null;

  @Column({ type: 'timestamptz' })
  created_at!: Date;

  @Column({ type: 'timestamptz' })
  expires_at!: Date;

  /** Set by the one request that used the link. */
  @Column({ type: 'timestamptz', nullable: true })
  consumed_at!: Date | null;
}
