import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { EntityManager, In, MoreThan, MoreThanOrEqual } from 'typeorm';
import { Clock } from '../../common/clock';
import { SessionNote } from '../context/session-note.entity';
import { FileLock } from '../sessions/file-lock.entity';
import { Session, SessionCloseReason } from '../sessions/session.entity';
import { SessionCloseHooks } from '../sessions/session-close-hooks';
import { SprintItem } from '../sprint/sprint-item.entity';
import { Task } from '../tasks/task.entity';
import { Handoff } from './handoff.entity';
import { HandoffDrafts } from './handoff-drafts.service';
import { HandoffService } from './handoff.service';

/** How many of the session's last tasks and notes the automatic handoff lists. */
const LAST_LISTED = 5;
/** Longest text of one listed task or note. */
const LINE_CHARS = 300;

const BECAUSE: Record<SessionCloseReason, string> = {
  closed: 'it was closed',
  swept: 'it was silent too long and the sweeper closed it',
  handed_off: 'its handoff was taken over',
  handoff_expired: 'its handoff expired',
};

/**
 * A handoff at every close: a session that ends (its own close, the Stop hook, the sweeper)
 * without a handoff since its last activity gets one written by Baton, in the closing
 * transaction — a delta naming the items it held and what became of them, the locks released,
 * its last tasks and notes — marked automatic and offered like one the agent wrote. A close
 * happens once (it is conditional on the session being active), so two closes store one.
 * Carriers of a handoff, and a session whose handoff is taken over, have theirs already.
 */
@Injectable()
export class HandoffAtClose implements OnModuleInit {
  private readonly logger = new Logger('handoff');

  constructor(
    private readonly closeHooks: SessionCloseHooks,
    private readonly handoffs: HandoffService,
    private readonly drafts: HandoffDrafts,
    private readonly clock: Clock,
  ) {}

  onModuleInit() {
    this.closeHooks.registerPreparation('automatic-handoff', () => this.drafts.warm());
    this.closeHooks.registerWitness('automatic-handoff', (m, session, reason) => this.witness(m, session, reason));
  }

  private async witness(m: EntityManager, session: Session, reason: SessionCloseReason): Promise<(() => Promise<void>) | undefined> {
    if (session.kind === 'handoff' || reason === 'handed_off' || reason === 'handoff_expired') return undefined;
    // Its own handoff since its last activity passed the baton already: ending after it is normal.
    const written = await m.findOne(Handoff, { select: { id: true }, where: { session_id: session.id, created_at: MoreThanOrEqual(session.last_seen) } });
    if (written) return undefined;
    const now = this.clock.now();
    const held = await m.find(SprintItem, { where: { claimed_by_session_id: session.id, status: 'in_progress' }, order: { priority_rank: 'ASC', added_at: 'ASC' } });
    const locks = await m.find(FileLock, { where: { session_id: session.id, expires_at: MoreThan(now) }, order: { file_path: 'ASC' } });
    const tasksHeld = await m.find(Task, { where: { claimed_by: session.id, status: 'in_progress' }, order: { seq: 'ASC' } });
    return async () => {
      // A handoff that cannot be written (its file, say) must not keep the session from closing:
      // it is written under a savepoint, undone alone on failure, and the failure is logged.
      await m.query('SAVEPOINT automatic_handoff');
      try {
        const after = held.length ? await m.find(SprintItem, { where: { id: In(held.map((i) => i.id)) } }) : [];
        const summary = await this.summary(m, session, reason, held, after, locks, tasksHeld);
        const answer = await this.handoffs.generateIn(m, session.project_id, { session_id: session.id, mode: 'delta', summary }, { files: [] }, { automatic: true });
        await m.query('RELEASE SAVEPOINT automatic_handoff');
        // The close commits right after its hooks, as the sprint hook's announcements assume.
        this.handoffs.announce(session.project_id, answer);
      } catch (error) {
        await m.query('ROLLBACK TO SAVEPOINT automatic_handoff');
        this.logger.warn({ msg: 'automatic handoff not written; the session closed without it', session_id: session.id, error: (error as Error).message });
      }
    };
  }

  private async summary(
    m: EntityManager,
    session: Session,
    reason: SessionCloseReason,
    held: SprintItem[],
    after: SprintItem[],
    locks: FileLock[],
    tasksHeld: Task[],
  ): Promise<string> {
    const lines: string[] = [
      `Session ${session.name} (${session.id}) ended because ${BECAUSE[reason]}, without a handoff since its last activity (${session.last_seen.toISOString()}). Baton wrote this one.`,
      '',
    ];
    const now = new Map(after.map((i) => [i.id, i]));
    lines.push(held.length ? 'Sprint items it held:' : 'Sprint items it held: none.');
    for (const item of held) {
      const then = now.get(item.id);
      const fate = !then
        ? 'deleted'
        : then.status === 'failed'
          ? `failed (its sessions ended ${then.stall_count} times without completing it)`
          : then.status === 'pending'
            ? `back to pending for the next session (stall ${then.stall_count})`
            : `${then.status}`;
      lines.push(`- ${item.slug} "${clip(item.title)}": ${fate}`);
    }
    lines.push(locks.length ? 'File locks released:' : 'File locks released: none.');
    for (const lock of locks) lines.push(`- ${lock.file_path}`);
    if (tasksHeld.length) {
      lines.push('Tasks it was working on, back in the queue:');
      for (const task of tasksHeld) lines.push(`- ${clip(task.description)}`);
    }
    const tasks = await m.find(Task, { where: { session_id: session.id }, order: { seq: 'DESC' }, take: LAST_LISTED });
    lines.push(tasks.length ? 'Its last tasks:' : 'Its last tasks: none logged.');
    for (const task of tasks) lines.push(`- [${task.status}] ${clip(task.description)}`);
    const notes = await m.find(SessionNote, { where: { session_id: session.id }, order: { created_at: 'DESC' }, take: LAST_LISTED });
    lines.push(notes.length ? 'Its last notes:' : 'Its last notes: none.');
    for (const note of notes) lines.push(`- ${clip(note.body)}`);
    return lines.join('\n');
  }
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > LINE_CHARS ? `${flat.slice(0, LINE_CHARS - 1)}…` : flat;
}
