import { WorkspaceDecision } from './workspace-decision.entity';
import { WorkspaceDecisionStatus } from './workspace-layer.constants';

export interface WorkspaceDecisionView {
  id: string;
  title: string;
  body: string;
  status: WorkspaceDecisionStatus;
  supersedes_id: string | null;
  superseded_by_id: string | null;
  created_at: string;
  updated_at: string;
}

export function toWorkspaceDecisionView(d: WorkspaceDecision): WorkspaceDecisionView {
  return {
    id: d.id,
    title: d.title,
    body: d.body,
    status: d.status,
    supersedes_id: d.supersedes_id,
    superseded_by_id: d.superseded_by_id,
    created_at: d.created_at.toISOString(),
    updated_at: d.updated_at.toISOString(),
  };
}
