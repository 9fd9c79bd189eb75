/** How clients see handoffs; no server code here (the dashboard's type check reads this file). */

/** What a handoff carries: how many in-progress sprint items and tasks, and live file locks. */
export interface CarriedWork {
  sprint_items: number;
  tasks: number;
  file_locks: number;
}

export interface HandoffMeta {
  id: string;
  project_id: string;
  session_id: string | null;
  mode: string;
  bytes: number;
  created_at: string;
  expires_at: string;
  consumed_at: string | null;
  consumed_by_session_id: string | null;
  /** Written by Baton when a session closed without a handoff since its last activity. */
  automatic: boolean;
}

/** A handoff as the project's list shows it (GET /projects/{id}/handoffs). */
export interface HandoffSummary extends HandoffMeta {
  /** accepted: a session started from it; waiting: it may still be taken; expired: nobody took it in time. */
  status: 'accepted' | 'waiting' | 'expired';
  from_session_name: string | null;
  consumed_by_session_name: string | null;
  /** What a waiting handoff holds for whoever takes it (null: it carries none, or is no longer waiting). */
  carries: CarriedWork | null;
}
