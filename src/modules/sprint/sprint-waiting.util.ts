import { In, Not } from 'typeorm';
import { sqlTimestamp } from '../../../libs/tenancy';
import { lockedFilesSql, waitingItemsSql } from './claim-sql';
import { SprintItem } from './sprint-item.entity';
import { itemFromRow } from './sprint-item.view';
import { queryRows } from './sprint-store.util';
import { SprintTrack } from './sprint-track.entity';
import { SprintTx } from './sprint-tx';
import { describeWaiting, heldBy, heldGates, WaitingItem, WaitingLock } from './sprint-waiting-gates.util';
import { Claimant } from './sprint.constants';

/** How many waiting items a next-claim that found nothing lists; the rest are counted. */
export const WAITING_LIST_MAX = 20;

/**
 * The todo and pending items a next-claim passed over, in serving order (at
 * most WAITING_LIST_MAX), each with every gate that holds it. Which gates
 * hold an item comes from the gate conditions of the claim statement itself
 * (claim-sql.ts), evaluated one by one with the same session, time and
 * claimant, so the order and the cap are the statement's too; the details
 * (the dependency, the lock and its holder, the track) are read afterwards,
 * only for the items listed, and put into words by describeWaiting.
 */
export async function waitingItems(tx: SprintTx, sessionId: string, claimant: Claimant, limit = WAITING_LIST_MAX): Promise<WaitingItem[]> {
  const { m, dialect, projectId } = tx;
  const now = sqlTimestamp(dialect, tx.now);
  const rows = await queryRows(m, dialect, waitingItemsSql(), [projectId, sessionId, now, claimant, limit]);
  const candidates = rows.map((row) => ({ item: itemFromRow(row), held: heldGates(row) }));

  const dependencyIds = [...new Set(heldBy(candidates, 'depends_on').map((i) => i.depends_on!))];
  const dependencies = new Map((dependencyIds.length ? await m.findBy(SprintItem, { id: In(dependencyIds) }) : []).map((d) => [d.id, d]));
  const tracks = new Map(
    (heldBy(candidates, 'track').length ? await m.findBy(SprintTrack, { project_id: projectId, state: Not('active') }) : []).map((t) => [t.name, t.state] as const),
  );
  const lockedIds = heldBy(candidates, 'file_lock').map((i) => i.id);
  const locks = lockedIds.length ? await queryRows<WaitingLock>(m, dialect, lockedFilesSql(lockedIds.length), [projectId, sessionId, now, ...lockedIds]) : [];
  return describeWaiting(candidates, { projectId, dependencies, tracks, locks });
}
