import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { In } from 'typeorm';
import { sqlTimestamp } from '../../../libs/tenancy';
import { Worktree } from '../executor/worktree.entity';
import { toWorktreeView, WorktreeView } from '../executor/executor.views';
import { HostedDefaultsStore } from '../profile-layers/hosted-defaults.store';
import { ProjectSettingsService } from '../project-settings/project-settings.service';
import { requireProject } from '../projects/require-project.util';
import { FileLocksService } from '../sessions/file-locks.service';
import { Session } from '../sessions/session.entity';
import { SessionError } from '../sessions/sessions.errors';
import { CLAIM_NEXT_ALONE_NAME, claimItemSql, claimNextAloneSql, claimNextSql, claimTouchesSession, peekNextSql } from './claim-sql';
import { ClaimSprintItemDto } from './dto/claim-sprint-item.dto';
import { isUuid } from './dto/sprint-field.rules';
import { SprintDb } from './sprint-db.service';
import { SprintItemResource } from './sprint-item-resource.entity';
import { SprintItem } from './sprint-item.entity';
import { itemFromRow, SprintItemView, toSprintItemView } from './sprint-item.view';
import { queryRows, requireItem } from './sprint-store.util';
import { SprintTrack } from './sprint-track.entity';
import { sprintChange, SprintTx } from './sprint-tx';
import { WaitingItem } from './sprint-waiting-gates.util';
import { waitingItems } from './sprint-waiting.util';
import { Claimant, NEXT_CLAIMABLE_STATUSES, TERMINAL_STATUSES } from './sprint.constants';
import { SprintError } from './sprint.errors';

/** Built once: the statement is the same for every claim (and prepared once per connection). */
const CLAIM_NEXT_ALONE_SQL = claimNextAloneSql();

export interface ClaimResult {
  claimed: boolean;
  item: SprintItemView | null;
  /** The session already held this item: nothing changed. */
  already_held?: boolean;
  /** Next-claimable found nothing: why, and how many todo/pending items wait on a gate. */
  detail?: string;
  waiting?: number;
  /** The first WAITING_LIST_MAX of them in serving order, each with every gate that holds it. */
  waiting_items?: WaitingItem[];
  /** How many waiting items the list leaves out. */
  waiting_not_listed?: number;
  /** auto_worktrees: the worktree record a worker's new claim got. */
  worktree?: WorktreeView;
}

/**
 * Claims: one conditional UPDATE decides (see claim-sql.ts). Only when it
 * changes nothing does the service read the item again, to say which gate
 * refused it, or who holds it. On Postgres a next-claim is first tried as a
 * transaction of its own, in one round trip (claimNextAlone).
 */
@Injectable()
export class SprintClaimsService {
  constructor(
    private readonly sprint: SprintDb,
    private readonly locks: FileLocksService,
    private readonly settings: ProjectSettingsService,
    private readonly hostedDefaults: HostedDefaultsStore,
  ) {}

  /** Claims `itemRef` (id, slug or nickname), or without it the next claimable item of the project. */
  async claim(projectId: string, input: ClaimSprintItemDto, itemRef?: string): Promise<ClaimResult> {
    const claimant = input.claimant ?? 'ai';
    if (itemRef === undefined && (await this.mayClaimNextAlone())) {
      const claimed = await this.claimNextAlone(projectId, input.session_id, claimant);
      if (claimed) return claimed;
    }
    return this.sprint.run(projectId, (tx) => (itemRef === undefined ? this.claimNext(tx, input.session_id, claimant) : this.claimItem(tx, itemRef, input.session_id, claimant)), {
      checkProject: false,
    });
  }

  private async claimItem(tx: SprintTx, ref: string, sessionId: string, claimant: Claimant): Promise<ClaimResult> {
    const byId = isUuid(ref);
    const params = [tx.projectId, sessionId, sqlTimestamp(tx.dialect, tx.now), claimant, byId ? ref.toLowerCase() : ref];
    // A second attempt only when the item changed between the claim and the explanation (a release, a PATCH).
    for (let attempt = 0; attempt < 2; attempt++) {
      const rows = await queryRows(tx.m, tx.dialect, claimItemSql(tx.dialect, byId), params);
      if (rows.length > 0) return this.claimed(tx, rows[0], sessionId);
      const held = await this.explainRefusal(tx, sessionId, claimant, ref);
      if (held) return { claimed: true, item: toSprintItemView(held), already_held: true };
    }
    throw SprintError.statusRace(ref);
  }

  /**
   * Whether the next-claim may first be tried as a transaction of its own (claimNextAloneSql):
   * on Postgres, where it saves round trips, unless a hosted_default layer names auto_worktrees
   * (the statement sees the tenant's layers, not the control plane's).
   */
  private async mayClaimNextAlone(): Promise<boolean> {
    return this.sprint.dialect === 'postgres' && !(await this.hostedDefaults.controlPlaneSets('auto_worktrees'));
  }

  /**
   * The next-claim in one round trip, when the claim is all there is to write; null when it
   * claimed nothing, for whatever reason (nothing claimable, a refused session, a worktree
   * record due): the long way then claims or explains.
   */
  private claimNextAlone(projectId: string, sessionId: string, claimant: Claimant): Promise<ClaimResult | null> {
    return this.sprint.runStatement(
      (now) => ({ name: CLAIM_NEXT_ALONE_NAME, text: CLAIM_NEXT_ALONE_SQL, values: [projectId, sessionId, sqlTimestamp('postgres', now), claimant] }),
      (rows) => {
        if (rows.length === 0) return { answer: null, changes: [] };
        const item = itemFromRow(rows[0]);
        return { answer: { claimed: true, item: toSprintItemView(item) }, changes: [sprintChange('claimed', item)] };
      },
    );
  }

  private async claimNext(tx: SprintTx, sessionId: string, claimant: Claimant): Promise<ClaimResult> {
    const rows = await queryRows(tx.m, tx.dialect, claimNextSql(tx.dialect), [tx.projectId, sessionId, sqlTimestamp(tx.dialect, tx.now), claimant]);
    if (rows.length > 0) return this.claimed(tx, rows[0], sessionId);
    await this.explainRefusal(tx, sessionId, claimant);
    const waiting = await tx.m.count(SprintItem, { where: { project_id: tx.projectId, status: In([...NEXT_CLAIMABLE_STATUSES]) } });
    if (waiting === 0) return { claimed: false, item: null, waiting, detail: 'no item is waiting to be claimed', waiting_items: [], waiting_not_listed: 0 };
    const listed = await waitingItems(tx, sessionId, claimant);
    return {
      claimed: false,
      item: null,
      waiting,
      detail: `no item is claimable now: ${waiting} todo/pending item(s) wait on a gate, a lock or another claimer (waiting_items says which, by priority)`,
      waiting_items: listed,
      waiting_not_listed: Math.max(0, waiting - listed.length),
    };
  }

  private async claimed(tx: SprintTx, row: Record<string, unknown>, sessionId: string): Promise<ClaimResult> {
    const item = itemFromRow(row);
    // Claiming is activity: it keeps the session from being swept (on Postgres the claim statement did it).
    if (!claimTouchesSession(tx.dialect)) await tx.m.update(Session, { id: sessionId }, { last_seen: tx.now });
    tx.changed('claimed', item);
    const worktree = await this.autoWorktree(tx, item, sessionId);
    return { claimed: true, item: toSprintItemView(item), ...(worktree ? { worktree } : {}) };
  }

  /**
   * auto_worktrees: an executor (a `worker` session) that claims an item gets a
   * worktree record for it, `.worktrees/<slug>` on branch `baton/<slug>`, for
   * the executor to create on its machine. An item claimed again (after a
   * requeue) keeps its record, handed to the new claimer.
   */
  private async autoWorktree(tx: SprintTx, item: SprintItem, sessionId: string): Promise<WorktreeView | null> {
    if (!(await this.settings.read(tx.m, tx.projectId)).auto_worktrees) return null;
    const session = await tx.m.findOneBy(Session, { id: sessionId });
    if (session?.kind !== 'worker') return null;
    const existing = await tx.m.findOneBy(Worktree, { sprint_item_id: item.id });
    if (existing) {
      const updated = { ...existing, session_id: sessionId, machine_id: null, status: 'active' as const, cleanup_reason: null, updated_at: tx.now };
      await tx.m.update(Worktree, { id: existing.id }, { session_id: sessionId, machine_id: null, status: 'active', cleanup_reason: null, updated_at: tx.now });
      return toWorktreeView(updated);
    }
    const worktree: Worktree = {
      id: randomUUID(),
      project_id: tx.projectId,
      machine_id: null,
      session_id: sessionId,
      path: `.worktrees/${item.slug}`,
      branch: `baton/${item.slug}`,
      status: 'active',
      cleanup_reason: null,
      sprint_item_id: item.id,
      merge_status: null,
      created_at: tx.now,
      updated_at: tx.now,
    };
    await tx.m.insert(Worktree, worktree);
    return toWorktreeView(worktree);
  }

  /** Gives an item back, only if `sessionId` holds it; it returns to pending. */
  async release(projectId: string, ref: string, sessionId: string): Promise<{ released: true; item: SprintItemView }> {
    return this.sprint.run(projectId, async (tx) => {
      const item = await requireItem(tx.m, projectId, ref);
      if (item.status !== 'in_progress') throw SprintError.notClaimed(item.slug, item.status);
      if (item.claimed_by_session_id !== sessionId) throw SprintError.claimMismatch(item.slug, item.claimed_by_session_id, 'release');
      const next: SprintItem = { ...item, status: 'pending', claimed_at: null, claimed_by_session_id: null, claimant: null, updated_at: tx.now };
      const result = await tx.m.update(
        SprintItem,
        { id: item.id, status: 'in_progress', claimed_by_session_id: sessionId },
        { status: next.status, claimed_at: null, claimed_by_session_id: null, claimant: null, updated_at: tx.now },
      );
      if (!result.affected) throw SprintError.statusRace(item.slug);
      tx.changed('released', next);
      return { released: true as const, item: toSprintItemView(next) };
    });
  }

  /**
   * Why the claim changed nothing: throws the refusal (project, session,
   * status, holder, or the first gate that fails, in the order of spec §3).
   * Answers the item when the session already holds it, and null when
   * nothing refuses it any more (the state moved under the claim: try again).
   */
  private async explainRefusal(tx: SprintTx, sessionId: string, claimant: Claimant, ref?: string): Promise<SprintItem | null> {
    const { m } = tx;
    await requireProject(m, tx.projectId);
    const session = await m.findOneBy(Session, { id: sessionId });
    if (!session) throw SessionError.notFound(sessionId);
    if (session.project_id !== tx.projectId) throw SprintError.sessionProjectMismatch(sessionId);
    if (session.status !== 'active') throw SessionError.closed(sessionId);
    if (session.kind === 'worker' && claimant === 'human') throw SprintError.claimantMismatch(sessionId);
    if (ref === undefined) return null;

    const item = await requireItem(m, tx.projectId, ref);
    if (TERMINAL_STATUSES.includes(item.status)) throw SprintError.notClaimable(item.slug, item.status);
    if (item.status === 'in_progress') {
      if (item.claimed_by_session_id === sessionId) return item;
      const holder = item.claimed_by_session_id ? await m.findOneBy(Session, { id: item.claimed_by_session_id }) : null;
      if (holder?.status === 'active') {
        const next = await queryRows<{ id: string }>(m, tx.dialect, peekNextSql(), [tx.projectId, sessionId, sqlTimestamp(tx.dialect, tx.now), claimant]);
        throw SprintError.alreadyClaimed(
          item.slug,
          { session_id: holder.id, session_name: holder.name, claimed_at: item.claimed_at?.toISOString() ?? null, claimant: item.claimant },
          next[0]?.id ?? null,
        );
      }
    }
    if (item.deferred_until && item.deferred_until > tx.now) throw SprintError.deferred(item.slug, item.deferred_until.toISOString());
    if (item.blocker_kind === 'superseded') throw SprintError.superseded(item.slug);
    if (item.depends_on) {
      const dependency = await m.findOneBy(SprintItem, { id: item.depends_on });
      if (dependency) {
        const failed = dependency.status === 'failed';
        const finished = TERMINAL_STATUSES.includes(dependency.status) && (!failed || item.failure_mode === 'continue');
        if (!finished) throw SprintError.dependencyUnmet(item.slug, dependency, failed);
      }
    }
    if (item.track) {
      const track = await m.findOneBy(SprintTrack, { project_id: tx.projectId, name: item.track });
      if (track && track.state !== 'active') throw SprintError.trackDeferred(item.slug, item.track, track.state);
    }
    if (!item.prospect_bypass && !item.prospected_at && item.touches_resources !== '[]') throw SprintError.unprospected(tx.projectId, item.slug, item.touches_resources);
    const files = (await m.findBy(SprintItemResource, { item_id: item.id })).map((r) => r.file_path).filter((p): p is string => p !== null);
    if (files.length > 0) {
      const lock = (await this.locks.liveLocks(m, tx.projectId)).find((l) => files.includes(l.file_path) && l.session_id !== sessionId);
      if (lock) throw SprintError.fileLocked(item.slug, lock);
    }
    if (claimant === 'ai' && item.milestone_type === 'milestone') throw SprintError.milestoneNotClaimable(item.slug);
    if (claimant === 'ai' && (item.milestone_type === 'human' || item.owner === 'human')) throw SprintError.humanOnly(item.slug);
    return null;
  }
}
