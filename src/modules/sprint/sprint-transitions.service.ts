import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { RequestError } from '../../common/errors/request-error';
import { Session } from '../sessions/session.entity';
import { SessionCloseHooks } from '../sessions/session-close-hooks';
import { SessionHandovers } from '../sessions/session-handovers';
import { CreateSprintItemDto } from './dto/create-sprint-item.dto';
import { CloseSprintItemDto, CompleteSprintItemDto, ForceFinishDto, PushSprintItemDto } from './dto/transition.dto';
import { SprintDb } from './sprint-db.service';
import { SprintEvents } from './sprint-events.service';
import { SprintItem } from './sprint-item.entity';
import { SprintItemsService } from './sprint-items.service';
import { SprintItemView, toSprintItemView } from './sprint-item.view';
import { rollUpOf } from './sprint-rollup.util';
import { appendNote, requireItem } from './sprint-store.util';
import { SprintChangeKind, SprintTx } from './sprint-tx';
import { SprintVerifications } from './sprint-verifications.service';
import { SprintWaves } from './sprint-waves.service';
import { ACTIVE_STATUSES, STALL_LIMIT, TERMINAL_STATUSES } from './sprint.constants';
import { SprintError } from './sprint.errors';

export type FinishAction = 'complete' | 'fail' | 'skip' | 'push';

/**
 * Where items finish: complete (or provisional_complete), fail, skip, push;
 * and what follows in the same transaction: `stop` dependents of a failed
 * item fail too, a parent whose subtasks are all finished rolls up, a wave
 * whose last item finished gets its completion record. Also re-queues the
 * in-progress items of a session that ends.
 */
@Injectable()
export class SprintTransitions implements OnModuleInit {
  constructor(
    private readonly sprint: SprintDb,
    private readonly waves: SprintWaves,
    private readonly closeHooks: SessionCloseHooks,
    private readonly handovers: SessionHandovers,
    private readonly items: SprintItemsService,
    private readonly events: SprintEvents,
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly verifications: SprintVerifications,
  ) {}

  onModuleInit() {
    this.closeHooks.register('sprint', async (m, session, reason) => {
      const tx = new SprintTx(m, this.db.dialect, session.project_id, this.clock.now());
      // Work a handoff carried and nobody took over was not worked on: not a stall.
      await this.requeueHeldBy(tx, session.id, reason !== 'handoff_expired');
      // The hook runs inside the closing transaction; the close commits right after it.
      this.events.publish(tx.changes);
    });
    // In-progress items move to the receiving session as they are: same status, claim time and claimant.
    this.handovers.register('sprint_items', {
      move: async (m, from, to) => {
        const result = await m.update(SprintItem, { claimed_by_session_id: from.id, status: 'in_progress' }, { claimed_by_session_id: to.id, updated_at: this.clock.now() });
        return result.affected ?? 0;
      },
      count: (m, sessionId) => m.countBy(SprintItem, { claimed_by_session_id: sessionId, status: 'in_progress' }),
    });
  }

  /** The completed item; `warnings` when it was completed without the verification advisory mode asks for. */
  async complete(projectId: string, ref: string, input: CompleteSprintItemDto): Promise<SprintItemView & { warnings?: string[] }> {
    await this.verifications.warm();
    return this.sprint.run(projectId, async (tx) => {
      const warnings: string[] = [];
      const view = toSprintItemView(await this.finishIn(tx, await requireItem(tx.m, projectId, ref), 'complete', input, warnings));
      return warnings.length ? { ...view, warnings } : view;
    });
  }

  async fail(projectId: string, ref: string, input: CloseSprintItemDto): Promise<SprintItemView> {
    return this.sprint.run(projectId, async (tx) => toSprintItemView(await this.finishIn(tx, await requireItem(tx.m, projectId, ref), 'fail', input)));
  }

  async skip(projectId: string, ref: string, input: CloseSprintItemDto): Promise<SprintItemView> {
    return this.sprint.run(projectId, async (tx) => toSprintItemView(await this.finishIn(tx, await requireItem(tx.m, projectId, ref), 'skip', input)));
  }

  async push(projectId: string, ref: string, input: PushSprintItemDto): Promise<SprintItemView> {
    return this.sprint.run(projectId, async (tx) => toSprintItemView(await this.finishIn(tx, await requireItem(tx.m, projectId, ref), 'push', input)));
  }

  /** Applies one finishing action to an item that is still active. */
  async finishIn(tx: SprintTx, item: SprintItem, action: FinishAction, input: CompleteSprintItemDto & Partial<PushSprintItemDto>, warnings: string[] = []): Promise<SprintItem> {
    if (TERMINAL_STATUSES.includes(item.status)) throw SprintError.itemTerminal(item.slug, item.status, action);
    const overridden = await this.overriddenGate(tx, item, action, input);
    tx.claimLost(item, input.session_id ?? null);
    const next: SprintItem = { ...item, updated_at: tx.now };
    if (overridden) next.notes = appendNote(next.notes, `${capitalised(action)} with force: ${overridden}; reason: ${input.force_reason}`);
    let change: SprintChangeKind;
    if (action === 'complete') {
      const notes = input.notes?.trim() ? input.notes : undefined;
      if (item.required_notes && !notes && !input.task_id && !item.task_id) throw SprintError.evidenceRequired(item.slug);
      // Done pending verification (provisional) is what a session without a pass may still say.
      if (!input.provisional) {
        const warning = await this.verifications.gate(tx, item, input.session_id);
        if (warning) warnings.push(warning);
      }
      if (notes) next.notes = appendNote(next.notes, notes);
      if (input.task_id) next.task_id = input.task_id;
      next.status = input.provisional ? 'provisional_complete' : 'done';
      change = 'completed';
    } else {
      const reason = input.reason?.trim() ? input.reason : undefined;
      if (action === 'fail') {
        next.status = 'failed';
        change = 'failed';
        if (reason) next.notes = appendNote(next.notes, `Failed: ${reason}`);
      } else if (action === 'skip') {
        next.status = 'skipped';
        change = 'skipped';
        if (reason) next.notes = appendNote(next.notes, `Skipped: ${reason}`);
      } else {
        next.status = 'pushed';
        next.pushed_to = input.to_version as string;
        change = 'pushed';
        // The work goes on in the target sprint: a pending copy of the item is created there.
        const copy = await this.items.createIn(tx, pushedCopy(item, next.pushed_to));
        next.notes = appendNote(next.notes, `Pushed to ${next.pushed_to} as ${copy.slug}${reason ? `: ${reason}` : ''}`);
      }
    }
    if (TERMINAL_STATUSES.includes(next.status)) next.completed_at = tx.now;
    await this.write(tx, item, next);
    tx.changed(change, next);
    if (TERMINAL_STATUSES.includes(next.status)) await this.afterFinished(tx, next);
    return next;
  }

  /**
   * The session `sessionId` ended with items in progress: each is re-queued
   * as pending with stall_count + 1 (when `stalled`), or, at the STALL_LIMIT-th
   * stall, failed with a note saying why.
   */
  async requeueHeldBy(tx: SprintTx, sessionId: string, stalled = true): Promise<void> {
    const held = await tx.m.findBy(SprintItem, { claimed_by_session_id: sessionId, status: 'in_progress' });
    for (const item of held) {
      const stalls = item.stall_count + (stalled ? 1 : 0);
      const next: SprintItem = { ...item, stall_count: stalls, claimed_at: null, claimed_by_session_id: null, claimant: null, updated_at: tx.now };
      if (stalls >= STALL_LIMIT) {
        next.status = 'failed';
        next.completed_at = tx.now;
        next.notes = appendNote(next.notes, `Failed: the sessions working on it ended ${stalls} times without completing it.`);
        await this.write(tx, item, next);
        tx.changed('failed', next);
        await this.afterFinished(tx, next);
      } else {
        next.status = 'pending';
        await this.write(tx, item, next);
        tx.changed('requeued', next);
      }
    }
  }

  /**
   * What would refuse `action` on `item`: another live session holds it (only that session may
   * finish it), or, to complete it, the item it depends on is not finished. Refused unless
   * `force` with a `force_reason`; then answers what was overridden, for the item's notes.
   */
  private async overriddenGate(tx: SprintTx, item: SprintItem, action: FinishAction, input: ForceFinishDto & { session_id?: string }): Promise<string | null> {
    if (input.force && !input.force_reason?.trim()) throw RequestError.invalidInput('force needs force_reason: say why the item is finished over its gate');
    if (item.status === 'in_progress' && item.claimed_by_session_id && item.claimed_by_session_id !== input.session_id) {
      const holder = await tx.m.findOneBy(Session, { id: item.claimed_by_session_id });
      if (holder?.status === 'active') {
        if (!input.force) throw SprintError.claimMismatch(item.slug, holder.id, action);
        return `it was held by session ${holder.name} (${holder.id})${input.session_id ? `, finished by session ${input.session_id}` : ''}`;
      }
    }
    if (action === 'complete' && item.status !== 'in_progress' && item.depends_on) {
      const dependency = await tx.m.findOneBy(SprintItem, { id: item.depends_on });
      const failed = dependency?.status === 'failed';
      if (dependency && !(TERMINAL_STATUSES.includes(dependency.status) && (!failed || item.failure_mode === 'continue'))) {
        if (!input.force) throw SprintError.dependencyUnmet(item.slug, dependency, failed);
        return `it depends on ${dependency.slug}, which is ${dependency.status}`;
      }
    }
    return null;
  }

  /** Conditional on the status read: a concurrent change makes this a STATUS_RACE, never a lost update. */
  private async write(tx: SprintTx, before: SprintItem, next: SprintItem): Promise<void> {
    const { id, project_id, ...changes } = next;
    const result = await tx.m.update(SprintItem, { id, project_id, status: before.status }, changes);
    if (!result.affected) throw SprintError.statusRace(before.slug);
  }

  private async afterFinished(tx: SprintTx, item: SprintItem): Promise<void> {
    if (item.status === 'failed') await this.stopDependents(tx, item);
    if (item.parent_id) await this.rollUp(tx, item.parent_id);
    if (item.wave) await this.waves.recordIfComplete(tx, item.wave);
  }

  /** Active dependents with failure_mode stop fail too (and so on down their own chains). */
  private async stopDependents(tx: SprintTx, failed: SprintItem): Promise<void> {
    const dependents = await activeWhere(tx.m, { project_id: failed.project_id, depends_on: failed.id, failure_mode: 'stop' });
    for (const child of dependents) {
      const next: SprintItem = {
        ...child,
        status: 'failed',
        completed_at: tx.now,
        updated_at: tx.now,
        notes: appendNote(child.notes, `Failed: it depends on ${failed.slug}, which failed, and its failure_mode is stop.`),
      };
      await this.write(tx, child, next);
      tx.changed('failed', next);
      await this.afterFinished(tx, next);
    }
  }

  /** Applies to an active parent what its subtasks make of it once none of them is active (rollUpOf). */
  private async rollUp(tx: SprintTx, parentId: string): Promise<void> {
    const parent = await tx.m.findOneBy(SprintItem, { id: parentId });
    if (!parent || TERMINAL_STATUSES.includes(parent.status)) return;
    const children = await tx.m.find(SprintItem, { select: { id: true, status: true }, where: { parent_id: parentId } });
    const rollUp = rollUpOf(parent.status, children);
    if (!rollUp) return;
    const next: SprintItem = { ...parent, status: rollUp.status, notes: appendNote(parent.notes, rollUp.note), updated_at: tx.now };
    if (rollUp.status === 'done') next.completed_at = tx.now;
    await this.write(tx, parent, next);
    tx.changed('rolled_up', next);
    if (rollUp.status === 'done') await this.afterFinished(tx, next);
  }
}

function activeWhere(m: EntityManager, where: Partial<Record<keyof SprintItem, unknown>>): Promise<SprintItem[]> {
  return m.find(SprintItem, { where: { ...where, status: In([...ACTIVE_STATUSES]) } as object });
}

function capitalised(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** The item as it goes on in the sprint `version`: pending, unclaimed, with what describes the work and where it lands. */
function pushedCopy(item: SprintItem, version: string): CreateSprintItemDto {
  const resources = JSON.parse(item.touches_resources) as string[];
  return {
    version,
    title: item.title,
    force: true, // the original is finished (pushed): the copy is not a duplicate of it
    ...(item.item_group ? { group: item.item_group } : {}),
    ...(item.notes ? { notes: item.notes } : {}),
    ...(resources.length > 0 ? { touches_resources: resources } : {}),
    ...(item.track ? { track: item.track } : {}),
    priority: item.priority,
    ...(item.human_id ? { human_id: item.human_id } : {}),
    failure_mode: item.failure_mode,
    milestone_type: item.milestone_type,
    required_notes: item.required_notes,
  };
}
