import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';

/** A generated handoff: its content, what it was generated against, and whether a session started from it. */
@Entity('handoffs')
export class Handoff {
  @PrimaryIdColumn()
  id!: string;

  @IdColumn()
  project_id!: string;

  @IdColumn({ nullable: true })
  session_id!: string | null;

  @Column('text')
  mode!: string;

  /**
   * SHA-256 of the short single-use token a session starts from (`start_session`
   * with handoff_token). The token itself is shown once, when generated.
   */
  @Column('text')
  token_sha256!: string;

  @Column('text')
  file_name!: string;

  /** The content as delivered, but with the token replaced by STORED_TOKEN_PLACEHOLDER. */
  @Column('text')
  content!: string;

  /** SHA-256 of the content after its front matter. */
  @Column('text')
  body_sha256!: string;

  /** SHA-256 of the project's board (every context section but active sessions) when generated. */
  @Column('text')
  board_sha256!: string;

  /** SHA-256 of the MCP tool manifest when generated. */
  @Column('text')
  tools_sha256!: string;

  @Column('integer')
  bytes!: number;

  @TimestampColumn()
  created_at!: Date;

  @TimestampColumn()
  expires_at!: Date;

  @TimestampColumn({ nullable: true })
  consumed_at!: Date | null;

  /** The session holding the work this handoff carries until a session accepts it (null: it carries none). */
  @IdColumn({ nullable: true })
  carrier_session_id!: string | null;

  @IdColumn({ nullable: true })
  consumed_by_session_id!: string | null;

  /** Written by Baton when a session closed without a handoff since its last activity. */
  @Column('boolean', { default: false })
  automatic!: boolean;
}
