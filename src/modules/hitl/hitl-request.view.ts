import { HitlRequest, HitlStatus, HitlUrgency } from './hitl-request.entity';

export interface HitlView {
  id: string;
  project_id: string;
  session_id: string;
  question: string;
  context: string | null;
  urgency: HitlUrgency;
  status: HitlStatus;
  answer: string | null;
  answered_by: string | null;
  assigned_to: string;
  created_at: string;
  answered_at: string | null;
}

export function toHitlView(r: HitlRequest): HitlView {
  return {
    id: r.id,
    project_id: r.project_id,
    session_id: r.session_id,
    question: r.question,
    context: r.context,
    urgency: r.urgency,
    status: r.status,
    answer: r.answer,
    answered_by: r.answered_by,
    assigned_to: r.assigned_to,
    created_at: r.created_at.toISOString(),
    answered_at: r.answered_at ? r.answered_at.toISOString() : null,
  };
}
