import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';

/** An MCP session of `POST /mcp`: what its client declared at initialization, and its log level. */
@Entity('mcp_sessions')
export class McpSessionRow {
  @PrimaryIdColumn()
  id!: string;

  /** Hash of the credential that opened it; another credential's request answers as for an unknown session. */
  @Column('text')
  owner!: string;

  @Column('text')
  protocol_version!: string;

  @Column('text')
  client_name!: string;

  /** The client's `capabilities` of its initialize request, as JSON. */
  @Column('text')
  client_capabilities!: string;

  @Column('text')
  log_level!: string;

  @TimestampColumn()
  created_at!: Date;

  @TimestampColumn()
  last_seen_at!: Date;
}

/** A message queued for a session's event stream; its id is the SSE event id a resumed stream continues after. */
@Entity('mcp_session_events')
export class McpSessionEvent {
  @PrimaryGeneratedColumn()
  id!: number;

  @IdColumn()
  session_id!: string;

  /** The JSON-RPC message, as JSON. */
  @Column('text')
  message!: string;

  @TimestampColumn()
  created_at!: Date;
}

/** A resource a session subscribed to (`resources/subscribe`). */
@Entity('mcp_subscriptions')
export class McpSubscription {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  session_id!: string;

  @PrimaryColumn('text')
  uri!: string;

  @IdColumn()
  project_id!: string;

  @Column('text')
  kind!: string;

  @TimestampColumn()
  created_at!: Date;
}

/** A HITL question asked in a session's client (`elicitation/create`), until it is answered there or elsewhere. */
@Entity('mcp_elicitations')
export class McpElicitation {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  session_id!: string;

  @PrimaryColumn('text')
  request_id!: string;

  @IdColumn()
  hitl_id!: string;

  @TimestampColumn()
  created_at!: Date;
}
