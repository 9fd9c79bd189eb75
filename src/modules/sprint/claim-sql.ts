import { Dialect } from '../../../libs/tenancy';
import { CLAIMABLE_STATUSES, NEXT_CLAIMABLE_STATUSES, TERMINAL_STATUSES } from './sprint.constants';

/**
 * The claim as one conditional UPDATE: the item moves to in_progress only if,
 * in the same statement, it is still claimable and passes every gate. Two
 * claimers (threads, processes or instances) can never both win: Postgres
 * re-checks the WHERE clause against the row a concurrent winner committed,
 * and SQLite runs the statement under its single write lock.
 *
 * Parameters (Postgres placeholders; bind them with bindParams on SQLite):
 *   $1 project_id  $2 session_id  $3 now  $4 claimant ('ai' | 'human')  $5 item id, slug or nickname
 *
 * The benchmark runs these same statements directly against Postgres to
 * measure the ceiling Baton is compared with.
 */

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

/** The claimer is a live session of the project; a worker session claims only as ai. */
const SESSION_OK = `EXISTS (SELECT 1 FROM sessions s WHERE s.id = $2 AND s.project_id = $1 AND s.status = 'active' AND (s.kind <> 'worker' OR $4 = 'ai'))`;

/** The name a gate carries in a refusal's `gate` field and in the waiting list of a next-claim that found nothing. */
export type ClaimGateName = 'blocked' | 'deferred' | 'superseded' | 'depends_on' | 'track' | 'prospect' | 'file_lock' | 'milestone' | 'human';

export interface ClaimGate {
  gate: ClaimGateName;
  /** The condition an item aliased `a` must meet to pass the gate. */
  passes: (a: string) => string;
}

/**
 * Every claim gate (spec §3), in the order refusals name them. The claim
 * statements AND them together, and the waiting list evaluates each one
 * alone, so the reasons it gives are exactly what refuses the claim.
 */
export const CLAIM_GATES: readonly ClaimGate[] = [
  { gate: 'deferred', passes: (a) => `(${a}.deferred_until IS NULL OR ${a}.deferred_until <= $3)` },
  { gate: 'superseded', passes: (a) => `(${a}.blocker_kind IS NULL OR ${a}.blocker_kind <> 'superseded')` },
  // any terminal status, but a failed dependency only lets a `continue` item through
  {
    gate: 'depends_on',
    passes: (a) => `(${a}.depends_on IS NULL OR EXISTS (SELECT 1 FROM sprint_items d WHERE d.id = ${a}.depends_on
       AND (d.status IN (${list(TERMINAL_STATUSES.filter((s) => s !== 'failed'))}) OR (d.status = 'failed' AND ${a}.failure_mode = 'continue'))))`,
  },
  // its track is neither deferred nor skipped
  {
    gate: 'track',
    passes: (a) => `(${a}.track IS NULL OR NOT EXISTS (SELECT 1 FROM sprint_tracks t WHERE t.project_id = ${a}.project_id AND t.name = ${a}.track AND t.state <> 'active'))`,
  },
  // declared resources need locations attached by a planner, unless bypassed
  { gate: 'prospect', passes: (a) => `(${a}.prospect_bypass = 1 OR ${a}.prospected_at IS NOT NULL OR ${a}.touches_resources = '[]')` },
  // no file it touches is locked by another live session
  { gate: 'file_lock', passes: (a) => `NOT EXISTS (SELECT 1 ${lockedFilesFrom(`r.item_id = ${a}.id`)})` },
  // milestones and human work are for people; the two gates together pass only a task not owned by a human
  { gate: 'milestone', passes: (a) => `($4 = 'human' OR ${a}.milestone_type <> 'milestone')` },
  {
    gate: 'human',
    passes: (a) => `($4 = 'human' OR ${a}.milestone_type = 'milestone' OR (${a}.milestone_type = 'task' AND (${a}.owner IS NULL OR ${a}.owner <> 'human')))`,
  },
];

/**
 * The next-claimable pick also passes over items with a manual blocker. With
 * the superseded gate this is `blocker_kind IS NULL`, written so that a
 * superseded item is held by one gate, not two.
 */
const MANUAL_BLOCKER_GATE: ClaimGate = { gate: 'blocked', passes: (a) => `(${a}.blocker_kind IS NULL OR ${a}.blocker_kind = 'superseded')` };

/** Every gate of the next-claimable pick, in the order the waiting list names them. */
export const NEXT_CLAIM_GATES: readonly ClaimGate[] = [MANUAL_BLOCKER_GATE, ...CLAIM_GATES];

/** The FROM and WHERE of the file lock gate: files of the items `itemsWhere` selects (on `r`) locked by another live session than $2. */
function lockedFilesFrom(itemsWhere: string): string {
  return `FROM sprint_item_resources r
       JOIN file_locks l ON l.project_id = r.project_id AND l.file_path = r.file_path
       JOIN sessions ls ON ls.id = l.session_id
      WHERE ${itemsWhere} AND r.file_path IS NOT NULL AND l.session_id <> $2 AND l.expires_at > $3 AND ls.status = 'active'`;
}

/** Every claim gate on the item aliased `a`, as one condition. */
export function claimGates(a: string, gates: readonly ClaimGate[] = CLAIM_GATES): string {
  return gates.map((g) => g.passes(a)).join('\n   AND ');
}

const SET_CLAIMED = `SET status = 'in_progress', claimed_at = $3, claimed_by_session_id = $2, claimant = $4, updated_at = $3`;

/**
 * On Postgres the claim also refreshes the claimer's last_seen in the same
 * statement (claiming is activity: it keeps the session from being swept),
 * saving a round trip on the hottest path. SQLite runs that update separately.
 */
function touchingSession(dialect: Dialect, update: string): string {
  if (dialect !== 'postgres') return update;
  return `WITH claimed AS (${update}),
 touched AS (UPDATE sessions SET last_seen = $3 WHERE id = $2 AND EXISTS (SELECT 1 FROM claimed))
SELECT * FROM claimed`;
}

/** Whether the claim statements of `dialect` refresh the claimer's last_seen themselves. */
export function claimTouchesSession(dialect: Dialect): boolean {
  return dialect === 'postgres';
}

/** Claims the item $5 (an id when `byId`, else a slug or nickname; a slug wins over an equal nickname). */
export function claimItemSql(dialect: Dialect, byId: boolean): string {
  const target = byId
    ? '$5'
    : `(SELECT x.id FROM sprint_items x WHERE x.project_id = $1 AND (x.slug = $5 OR x.nickname = $5)
        ORDER BY CASE WHEN x.slug = $5 THEN 0 ELSE 1 END LIMIT 1)`;
  return touchingSession(
    dialect,
    `UPDATE sprint_items AS c ${SET_CLAIMED}
 WHERE c.project_id = $1 AND c.id = ${target}
   AND (c.status IN (${list(CLAIMABLE_STATUSES)})
        OR (c.status = 'in_progress' AND (c.claimed_by_session_id IS NULL OR (c.claimed_by_session_id <> $2
            AND NOT EXISTS (SELECT 1 FROM sessions h WHERE h.id = c.claimed_by_session_id AND h.status = 'active')))))
   AND ${SESSION_OK}
   AND ${claimGates('c')}
 RETURNING *`,
  );
}

/**
 * The next claimable item of the project, in serving order (priority, then
 * age), skipping items that are gated, blocked, or in a deferred or skipped
 * track. On Postgres, rows another claimer has locked are skipped, so
 * concurrent workers each take a different item instead of queueing.
 */
export function nextClaimableSelect(dialect: Dialect): string {
  return `SELECT n.id FROM sprint_items n
  WHERE n.project_id = $1 AND n.status IN (${list(NEXT_CLAIMABLE_STATUSES)})
   AND ${claimGates('n', NEXT_CLAIM_GATES)}
  ORDER BY n.priority_rank, n.added_at, n.id
  LIMIT 1${dialect === 'postgres' ? ' FOR UPDATE OF n SKIP LOCKED' : ''}`;
}

export function claimNextSql(dialect: Dialect): string {
  return touchingSession(
    dialect,
    `UPDATE sprint_items AS c ${SET_CLAIMED}
 WHERE c.id = (${nextClaimableSelect(dialect)})
   AND c.status IN (${list(NEXT_CLAIMABLE_STATUSES)})
   AND ${SESSION_OK}
 RETURNING *`,
  );
}

/**
 * No auto_worktrees record can be due for this claim: the claimer is not a
 * worker, or no layer of the project's profile stored in the tenant could turn
 * auto_worktrees on (its default is off). Deliberately coarse: a layer that
 * merely names the field counts, so the test never needs the profile
 * resolution itself; a false alarm only sends the claim the long way.
 */
const NO_WORKTREE_DUE = `NOT EXISTS (SELECT 1 FROM sessions w WHERE w.id = $2 AND w.kind = 'worker'
     AND (EXISTS (SELECT 1 FROM project_settings ps WHERE ps.project_id = $1 AND ps.auto_worktrees)
          OR EXISTS (SELECT 1 FROM profile_layers pl WHERE pl.fields LIKE '%"auto_worktrees"%'
                      AND (pl.scope_type IN ('hosted_default', 'workspace') OR (pl.scope_type = 'project' AND (pl.project_id = $1 OR pl.scope_id = CAST($1 AS text)))))))`;

/**
 * The next-claim as a whole transaction on Postgres: the claim, the claimer's
 * last_seen, and nothing else to write, so BEGIN, the statement and COMMIT can
 * leave together and cost one round trip. It claims only when no worktree
 * record is due (NO_WORKTREE_DUE); when it claims nothing the caller takes the
 * long way (claimNextSql in a transaction), which also explains a refusal.
 * Prepared once per connection under CLAIM_NEXT_ALONE_NAME.
 */
export function claimNextAloneSql(): string {
  return touchingSession(
    'postgres',
    `UPDATE sprint_items AS c ${SET_CLAIMED}
 WHERE c.id = (${nextClaimableSelect('postgres')})
   AND c.status IN (${list(NEXT_CLAIMABLE_STATUSES)})
   AND ${SESSION_OK}
   AND ${NO_WORKTREE_DUE}
 RETURNING *`,
  );
}

/** The name claimNextAloneSql is prepared under on each connection (the benchmark's ceiling prepares it alike). */
export const CLAIM_NEXT_ALONE_NAME = 'sprint_claim_next_alone';

/** The id the next-claimable pick would take, without claiming it (for "already claimed" answers). */
export function peekNextSql(): string {
  return nextClaimableSelect('sqlite');
}

/**
 * The todo and pending items of the project in serving order, at most $5,
 * each with one column per gate of the next-claimable pick: `held_<gate>` is
 * 1 when that gate holds the item. Same parameters as the claim.
 */
export function waitingItemsSql(): string {
  const held = NEXT_CLAIM_GATES.map((g) => `CASE WHEN ${g.passes('n')} THEN 0 ELSE 1 END AS held_${g.gate}`).join(',\n    ');
  return `SELECT n.*,
    ${held}
  FROM sprint_items n
  WHERE n.project_id = $1 AND n.status IN (${list(NEXT_CLAIMABLE_STATUSES)})
  ORDER BY n.priority_rank, n.added_at, n.id
  LIMIT $5`;
}

/** The files of `count` items ($4, $5, ...: their ids) that the file lock gate holds, with the lock and its holder. */
export function lockedFilesSql(count: number): string {
  const ids = Array.from({ length: count }, (_, i) => `$${i + 4}`).join(', ');
  return `SELECT r.item_id, l.file_path, l.session_id, ls.name AS session_name, l.expires_at
  ${lockedFilesFrom(`r.project_id = $1 AND r.item_id IN (${ids})`)}
  ORDER BY r.item_id, l.file_path`;
}
