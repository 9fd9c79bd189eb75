import { EntityManager } from 'typeorm';
import { Dialect } from '../../../libs/tenancy';
import type { NewNotice } from '../sessions/session-notices.service';
import { SprintItem } from './sprint-item.entity';

export type SprintChangeKind =
  'created' | 'updated' | 'claimed' | 'released' | 'requeued' | 'completed' | 'failed' | 'skipped' | 'pushed' | 'rolled_up' | 'waves_assigned' | 'deleted' | 'verified';

export interface SprintChange {
  change: SprintChangeKind;
  projectId: string;
  item: SprintItem | null;
  itemId: string;
}

/** A change of `item`, announced with a copy of it as it is now. */
export function sprintChange(change: SprintChangeKind, item: SprintItem): SprintChange {
  return { change, projectId: item.project_id, item: { ...item }, itemId: item.id };
}

/**
 * One unit of sprint work inside a transaction: the manager, the project, the
 * time, and the changes to announce once the transaction has committed.
 */
export class SprintTx {
  readonly changes: SprintChange[] = [];
  /** Sessions that lost their claim on an item in this work: each is told (SessionNotices). */
  readonly lostClaims: NewNotice[] = [];

  constructor(
    readonly m: EntityManager,
    readonly dialect: Dialect,
    readonly projectId: string,
    readonly now: Date,
  ) {}

  changed(change: SprintChangeKind, item: SprintItem): void {
    this.changes.push(sprintChange(change, item));
  }

  /** `item`, held in progress by a session, is no longer its: taken by `takenById`, or put back (null). */
  claimLost(item: SprintItem, takenById: string | null): void {
    if (item.status !== 'in_progress' || !item.claimed_by_session_id || item.claimed_by_session_id === takenById) return;
    this.lostClaims.push({ projectId: item.project_id, sessionId: item.claimed_by_session_id, kind: 'claim_lost', itemId: item.id, itemRef: item.slug, takenById, at: this.now });
  }

  deleted(itemId: string): void {
    this.changes.push({ change: 'deleted', projectId: this.projectId, item: null, itemId });
  }
}
