import { PROPOSAL_CHAIN, ProposalDirection, ProposalStatus, REVIEWABLE_STATUSES } from './proposals.constants';

/**
 * Where one step of advance_proposal_status takes a proposal: forward along
 * raw → investigating → rejected, or back one step; null when there is no
 * such step (the end of the chain, or a promoted proposal, which is final).
 */
export function nextProposalStatus(status: ProposalStatus, direction: ProposalDirection): ProposalStatus | null {
  const at = PROPOSAL_CHAIN.indexOf(status);
  if (at < 0) return null;
  return PROPOSAL_CHAIN[direction === 'forward' ? at + 1 : at - 1] ?? null;
}

/** Whether promote_proposal may take a proposal in `status`. */
export function isReviewable(status: ProposalStatus): boolean {
  return REVIEWABLE_STATUSES.includes(status);
}
