export const PROPOSAL_STATUSES = ['raw', 'investigating', 'promoted', 'rejected'] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

/** The review chain, in order: advancing moves one step right, moving back one step left. */
export const PROPOSAL_CHAIN: readonly ProposalStatus[] = ['raw', 'investigating', 'rejected'];

/** States a proposal can be promoted from: still under review (a rejected one is moved back first). */
export const REVIEWABLE_STATUSES: readonly ProposalStatus[] = ['raw', 'investigating'];

export const PROPOSAL_DIRECTIONS = ['forward', 'back'] as const;
export type ProposalDirection = (typeof PROPOSAL_DIRECTIONS)[number];

export const PROPOSAL_TITLE_MAX = 300;
export const PROPOSAL_BODY_MAX = 10000;
export const PROPOSAL_LIST_LIMIT_DEFAULT = 50;
export const PROPOSAL_LIST_LIMIT_MAX = 200;

/** The sprint version a promoted item lands in when the promotion names none. */
export const PROMOTED_VERSION_DEFAULT = 'backlog';
