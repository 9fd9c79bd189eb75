import { In, Not } from 'typeorm';
import { fromSqlTimestamp, sqlTimestamp } from '../../../libs/tenancy';
import { ClaimGateName, lockedFilesSql, NEXT_CLAIM_GATES, waitingItemsSql } from './claim-sql';
import { SprintItem } from './sprint-item.entity';
import { itemFromRow } from './sprint-item.view';
import { queryRows } from './sprint-store.util';
import { SprintTrack } from './sprint-track.entity';
import { SprintTx } from './sprint-tx';
import { Claimant } from './sprint.constants';
import { SprintError, SprintErrorCode } from './sprint.errors';

/** How many waiting items a next-claim that found nothing lists; the rest are counted. */
export const WAITING_LIST_MAX = 20;

/** One gate holding a waiting item: the gate, the code a claim of it by id would be refused with, and why. */
export interface WaitingGate {
  gate: ClaimGateName | 'contended';
  code?: SprintErrorCode;
  detail: string;
  [field: string]: unknown;
}

export interface WaitingItem {
  item_id: string;
  slug: string;
  title: string;
  priority: string;
  status: string;
  gates: WaitingGate[];
}

const fromError = (error: SprintError): WaitingGate => ({ ...error.extra, gate: error.extra?.gate as ClaimGateName, code: error.code, detail: error.detail });

/**
 * The todo and pending items a next-claim passed over, in serving order (at
 * most WAITING_LIST_MAX), each with every gate that holds it. Which gates
 * hold an item comes from the gate conditions of the claim statement itself
 * (claim-sql.ts), evaluated one by one with the same session, time and
 * claimant; the details (the dependency, the lock and its holder, the track)
 * are read afterwards for the items listed.
 */
export async function waitingItems(tx: SprintTx, sessionId: string, claimant: Claimant): Promise<WaitingItem[]> {
  const { m, dialect, projectId } = tx;
  const now = sqlTimestamp(dialect, tx.now);
  const rows = await queryRows(m, dialect, waitingItemsSql(), [projectId, sessionId, now, claimant, WAITING_LIST_MAX]);
  const items = rows.map((row) => ({ item: itemFromRow(row), held: new Set(NEXT_CLAIM_GATES.filter((g) => Number(row[`held_${g.gate}`]) === 1).map((g) => g.gate)) }));
  const heldBy = (gate: ClaimGateName) => items.filter((i) => i.held.has(gate)).map((i) => i.item);

  const dependencyIds = [...new Set(heldBy('depends_on').map((i) => i.depends_on!))];
  const dependencies = new Map((dependencyIds.length ? await m.findBy(SprintItem, { id: In(dependencyIds) }) : []).map((d) => [d.id, d]));
  const tracks = new Map((heldBy('track').length ? await m.findBy(SprintTrack, { project_id: projectId, state: Not('active') }) : []).map((t) => [t.name, t.state] as const));
  const lockedIds = heldBy('file_lock').map((i) => i.id);
  const locks = lockedIds.length
    ? await queryRows<{ item_id: string; file_path: string; session_id: string; session_name: string | null; expires_at: Date | string }>(
        m,
        dialect,
        lockedFilesSql(lockedIds.length),
        [projectId, sessionId, now, ...lockedIds],
      )
    : [];

  const gatesOf = (item: SprintItem, held: Set<ClaimGateName>): WaitingGate[] => {
    const gates: WaitingGate[] = [];
    const ref = item.slug;
    for (const { gate } of NEXT_CLAIM_GATES) {
      if (!held.has(gate)) continue;
      switch (gate) {
        case 'blocked':
          gates.push({
            gate,
            blocker_kind: item.blocker_kind,
            detail: `sprint item ${ref} has blocker_kind ${item.blocker_kind} (it waits on an action outside Baton): the next-claimable pick passes over it; claim it by id, or clear blocker_kind once the action is done`,
          });
          break;
        case 'deferred':
          gates.push(fromError(SprintError.deferred(ref, item.deferred_until!.toISOString())));
          break;
        case 'superseded':
          gates.push(fromError(SprintError.superseded(ref)));
          break;
        case 'depends_on': {
          const dependency = dependencies.get(item.depends_on!);
          gates.push(
            dependency
              ? fromError(SprintError.dependencyUnmet(ref, dependency, dependency.status === 'failed'))
              : { gate, code: SprintErrorCode.DependencyUnmet, depends_on: item.depends_on, detail: `sprint item ${ref} depends on ${item.depends_on}, which no longer exists` },
          );
          break;
        }
        case 'track':
          gates.push(fromError(SprintError.trackDeferred(ref, item.track!, tracks.get(item.track!) ?? 'not active')));
          break;
        case 'prospect':
          gates.push(fromError(SprintError.unprospected(projectId, ref, item.touches_resources)));
          break;
        case 'file_lock':
          for (const lock of locks.filter((l) => l.item_id === item.id)) {
            const expires = fromSqlTimestamp(lock.expires_at).toISOString();
            gates.push(
              fromError(
                SprintError.fileLocked(ref, { file_path: lock.file_path, session_id: lock.session_id, session_name: lock.session_name ?? lock.session_id, expires_at: expires }),
              ),
            );
          }
          break;
        case 'milestone':
          gates.push(fromError(SprintError.milestoneNotClaimable(ref)));
          break;
        case 'human':
          gates.push(fromError(SprintError.humanOnly(ref)));
          break;
      }
    }
    // Every gate passed when this was read: a concurrent claimer held the row (Postgres skips locked rows), or it became claimable since.
    if (gates.length === 0) {
      gates.push({
        gate: 'contended',
        detail: `sprint item ${ref} passed every gate when this answer was read: another claimer was taking it, or it became claimable a moment ago; claim again`,
      });
    }
    return gates;
  };

  return items.map(({ item, held }) => ({ item_id: item.id, slug: item.slug, title: item.title, priority: item.priority, status: item.status, gates: gatesOf(item, held) }));
}
