import { ProposalStatus } from './proposals.constants';
import { WorkspaceProposal } from './workspace-proposal.entity';

export interface WorkspaceProposalView {
  id: string;
  title: string;
  body: string;
  status: ProposalStatus;
  human_id: string | null;
  sprint_item_id: string | null;
  promoted_project_id: string | null;
  created_at: string;
  updated_at: string;
  promoted_at: string | null;
}

export function toWorkspaceProposalView(p: WorkspaceProposal): WorkspaceProposalView {
  return {
    id: p.id,
    title: p.title,
    body: p.body,
    status: p.status,
    human_id: p.human_id,
    sprint_item_id: p.sprint_item_id,
    promoted_project_id: p.promoted_project_id,
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
    promoted_at: p.promoted_at?.toISOString() ?? null,
  };
}
