import { fromSqlTimestamp } from '../../../libs/tenancy';
import { ClaimGateName, NEXT_CLAIM_GATES } from './claim-sql';
import { SprintItem } from './sprint-item.entity';
import { SprintError, SprintErrorCode } from './sprint.errors';

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

/** A waiting item and the gates its row says hold it. */
export interface WaitingCandidate {
  item: SprintItem;
  held: ReadonlySet<ClaimGateName>;
}

/** A file one waiting item touches, locked by another live session. */
export interface WaitingLock {
  item_id: string;
  file_path: string;
  session_id: string;
  session_name: string | null;
  expires_at: Date | string;
}

/** What the details of the gates are read from: the items depended on, the tracks not active, the locks. */
export interface WaitingDetails {
  projectId: string;
  /** The items the candidates depend on, by id; a missing one no longer exists. */
  dependencies: ReadonlyMap<string, SprintItem>;
  /** The state of each track that is not active, by name. */
  tracks: ReadonlyMap<string, string>;
  locks: readonly WaitingLock[];
}

/** The gates a row of waitingItemsSql says hold its item: its `held_<gate>` columns that are 1. */
export function heldGates(row: Record<string, unknown>): Set<ClaimGateName> {
  return new Set(NEXT_CLAIM_GATES.filter((g) => Number(row[`held_${g.gate}`]) === 1).map((g) => g.gate));
}

/** The items a gate holds, for reading that gate's details only for them. */
export function heldBy(candidates: readonly WaitingCandidate[], gate: ClaimGateName): SprintItem[] {
  return candidates.filter((c) => c.held.has(gate)).map((c) => c.item);
}

/** Each candidate, in the order given, with every gate that holds it. */
export function describeWaiting(candidates: readonly WaitingCandidate[], details: WaitingDetails): WaitingItem[] {
  return candidates.map(({ item, held }) => ({
    item_id: item.id,
    slug: item.slug,
    title: item.title,
    priority: item.priority,
    status: item.status,
    gates: gatesHolding(item, held, details),
  }));
}

/**
 * The gates holding `item`, in the order of NEXT_CLAIM_GATES, each with the
 * refusal a claim of it by id would meet; a file lock gate once per locked
 * file. When no gate held it as it was read, it is named contended.
 */
export function gatesHolding(item: SprintItem, held: ReadonlySet<ClaimGateName>, details: WaitingDetails): WaitingGate[] {
  const gates = NEXT_CLAIM_GATES.filter(({ gate }) => held.has(gate)).flatMap(({ gate }) => gateDetails(gate, item, details));
  // Every gate passed when this was read: a concurrent claimer held the row (Postgres skips locked rows), or it became claimable since.
  if (gates.length === 0) {
    gates.push({
      gate: 'contended',
      detail: `sprint item ${item.slug} passed every gate when this answer was read: another claimer was taking it, or it became claimable a moment ago; claim again`,
    });
  }
  return gates;
}

const fromError = (error: SprintError): WaitingGate => ({ ...error.extra, gate: error.extra?.gate as ClaimGateName, code: error.code, detail: error.detail });

function gateDetails(gate: ClaimGateName, item: SprintItem, details: WaitingDetails): WaitingGate[] {
  const ref = item.slug;
  switch (gate) {
    case 'blocked':
      return [
        {
          gate,
          blocker_kind: item.blocker_kind,
          detail: `sprint item ${ref} has blocker_kind ${item.blocker_kind} (it waits on an action outside Baton): the next-claimable pick passes over it; claim it by id, or clear blocker_kind once the action is done`,
        },
      ];
    case 'deferred':
      return [fromError(SprintError.deferred(ref, item.deferred_until!.toISOString()))];
    case 'superseded':
      return [fromError(SprintError.superseded(ref))];
    case 'depends_on': {
      const dependency = details.dependencies.get(item.depends_on!);
      if (dependency) return [fromError(SprintError.dependencyUnmet(ref, dependency, dependency.status === 'failed'))];
      return [{ gate, code: SprintErrorCode.DependencyUnmet, depends_on: item.depends_on, detail: `sprint item ${ref} depends on ${item.depends_on}, which no longer exists` }];
    }
    case 'track':
      return [fromError(SprintError.trackDeferred(ref, item.track!, details.tracks.get(item.track!) ?? 'not active'))];
    case 'prospect':
      return [fromError(SprintError.unprospected(details.projectId, ref, item.touches_resources))];
    case 'file_lock':
      return details.locks
        .filter((l) => l.item_id === item.id)
        .map((lock) => {
          const expires = fromSqlTimestamp(lock.expires_at).toISOString();
          return fromError(
            SprintError.fileLocked(ref, { file_path: lock.file_path, session_id: lock.session_id, session_name: lock.session_name ?? lock.session_id, expires_at: expires }),
          );
        });
    case 'milestone':
      return [fromError(SprintError.milestoneNotClaimable(ref))];
    case 'human':
      return [fromError(SprintError.humanOnly(ref))];
  }
}
