import { EntityManager } from 'typeorm';
import { Dialect } from '../../../libs/tenancy';
import { SprintItem } from './sprint-item.entity';

export type SprintChangeKind =
  'created' | 'updated' | 'claimed' | 'released' | 'requeued' | 'completed' | 'failed' | 'skipped' | 'pushed' | 'rolled_up' | 'waves_assigned' | 'deleted';

export interface SprintChange {
  change: SprintChangeKind;
  projectId: string;
  item: SprintItem | null;
  itemId: string;
}

/**
 * One unit of sprint work inside a transaction: the manager, the project, the
 * time, and the changes to announce once the transaction has committed.
 */
export class SprintTx {
  readonly changes: SprintChange[] = [];

  constructor(
    readonly m: EntityManager,
    readonly dialect: Dialect,
    readonly projectId: string,
    readonly now: Date,
  ) {}

  changed(change: SprintChangeKind, item: SprintItem): void {
    this.changes.push({ change, projectId: item.project_id, item: { ...item }, itemId: item.id });
  }

  deleted(itemId: string): void {
    this.changes.push({ change: 'deleted', projectId: this.projectId, item: null, itemId });
  }
}
