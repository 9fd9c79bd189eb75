import { Session, SessionCloseReason, SessionKind, SessionStatus } from './session.entity';

export interface SessionView {
  id: string;
  project_id: string;
  name: string;
  kind: SessionKind;
  status: SessionStatus;
  human_id: string;
  state: Record<string, unknown> | null;
  last_seen: string;
  created_at: string;
  closed_at: string | null;
  close_reason: SessionCloseReason | null;
}

export function toSessionView(session: Session): SessionView {
  return {
    id: session.id,
    project_id: session.project_id,
    name: session.name,
    kind: session.kind,
    status: session.status,
    human_id: session.human_id,
    state: session.state ? (JSON.parse(session.state) as Record<string, unknown>) : null,
    last_seen: session.last_seen.toISOString(),
    created_at: session.created_at.toISOString(),
    closed_at: session.closed_at ? session.closed_at.toISOString() : null,
    close_reason: session.close_reason,
  };
}
