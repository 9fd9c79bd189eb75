import { PinnedDecisionStatus } from './notes.constants';
import { PinnedDecision } from './pinned-decision.entity';

export interface PinnedDecisionView {
  id: string;
  project_id: string;
  title: string;
  body: string;
  status: PinnedDecisionStatus;
  supersedes_id: string | null;
  superseded_by_id: string | null;
  human_id: string | null;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
}

export function toPinnedDecisionView(d: PinnedDecision): PinnedDecisionView {
  return {
    ...d,
    created_at: d.created_at.toISOString(),
    updated_at: d.updated_at.toISOString(),
    archived_at: d.archived_at ? d.archived_at.toISOString() : null,
  };
}
