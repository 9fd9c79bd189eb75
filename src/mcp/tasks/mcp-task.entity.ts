import { Column, Entity } from 'typeorm';
import { PrimaryIdColumn, TimestampColumn } from '../../database/columns';

/** A task-augmented call of a waiting tool: what was called, how long it may wait, and its outcome once known. */
@Entity('mcp_tasks')
export class McpTaskRow {
  @PrimaryIdColumn()
  id!: string;

  @Column('text')
  tool!: string;

  /** The call's arguments as JSON. */
  @Column('text')
  arguments!: string;

  /** working, completed, failed or cancelled (the MCP task statuses Baton uses). */
  @Column('text')
  status!: string;

  @Column('text', { nullable: true })
  status_message!: string | null;

  /** The CallToolResult as JSON, once completed or failed. */
  @Column('text', { nullable: true })
  result!: string | null;

  /** Until when the call waits for its answer; at this time it completes with what there is. */
  @TimestampColumn()
  wait_until!: Date;

  @Column('integer')
  ttl_ms!: number;

  @Column('integer')
  poll_interval_ms!: number;

  @TimestampColumn()
  created_at!: Date;

  @TimestampColumn()
  updated_at!: Date;

  /** created_at + ttl_ms: after it the task is gone. */
  @TimestampColumn()
  expires_at!: Date;
}
