import { fromSqlTimestamp } from '../../../libs/tenancy';
import { RecipientKind } from './message.entity';

export interface MessageView {
  id: string;
  project_id: string;
  /** Position in the project's order; acknowledge with ack_through = the last seq handled. */
  seq: number;
  from: string | null;
  /** The sending session, checked by Baton: reply with to_session_id set to it. */
  from_session_id: string | null;
  recipient_kind: RecipientKind;
  /** Session id or agent name; null for a project-wide message. */
  recipient: string | null;
  body: string;
  idempotency_key: string | null;
  created_at: string;
}

/** A page of a project's messages, newest first (GET /projects/{id}/messages). */
export interface MessagePage {
  messages: MessageView[];
  /** Pass as `before_seq` for the next (older) page; null on the last page. */
  next_before_seq: number | null;
}

export interface MessageRow {
  id: string;
  project_id: string;
  seq: string | number;
  sender: string | null;
  sender_session_id: string | null;
  recipient_kind: RecipientKind;
  recipient: string | null;
  body: string;
  idempotency_key: string | null;
  created_at: Date | string;
}

export function toMessageView(row: MessageRow): MessageView {
  return {
    id: row.id,
    project_id: row.project_id,
    seq: Number(row.seq),
    from: row.sender,
    from_session_id: row.sender_session_id ?? null,
    recipient_kind: row.recipient_kind,
    recipient: row.recipient,
    body: row.body,
    idempotency_key: row.idempotency_key,
    created_at: fromSqlTimestamp(row.created_at).toISOString(),
  };
}
