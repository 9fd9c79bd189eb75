import { Injectable } from '@nestjs/common';
import { Statement, TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { isUniqueViolation } from '../../common/errors/db-errors';
import { requireProject } from '../projects/require-project.util';
import { RecordedNotice, SessionNotices } from '../sessions/session-notices.service';
import { SprintEvents } from './sprint-events.service';
import { SprintChange, SprintTx } from './sprint-tx';

export interface SprintRunOptions {
  /** Check that the project exists first (404 otherwise). Claims skip it on the fast path and diagnose on refusal. */
  checkProject?: boolean;
  /** Run the work again on a unique violation it did not settle itself (slug and nickname races are settled in SprintIdentifiers.insert). */
  retryOnUniqueViolation?: boolean;
}

/** Runs sprint work in one tenant transaction and announces its changes once it has committed; reads need neither. */
@Injectable()
export class SprintDb {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly events: SprintEvents,
    private readonly notices: SessionNotices,
  ) {}

  get dialect() {
    return this.db.dialect;
  }

  /** Read-only sprint work (TenantDb.read): the project is checked first; nothing is announced. */
  read<T>(projectId: string, work: (tx: SprintTx) => Promise<T>): Promise<T> {
    return this.db.read(async (m) => {
      await requireProject(m, projectId);
      return work(new SprintTx(m, this.db.dialect, projectId, this.clock.now()));
    });
  }

  /**
   * One write statement as a transaction of its own (TenantDb.writeStatement: on Postgres BEGIN,
   * the statement and COMMIT in one round trip), for hot work that is that statement alone.
   * `build` makes it for the time of the work; `done` turns its rows into the answer and the
   * changes to announce, announced once it has committed.
   */
  async runStatement<T>(build: (now: Date) => Statement, done: (rows: Record<string, unknown>[]) => { answer: T; changes: SprintChange[] }): Promise<T> {
    const { answer, changes } = done(await this.db.writeStatement(build(this.clock.now())));
    this.events.publish(changes);
    return answer;
  }

  async run<T>(projectId: string, work: (tx: SprintTx) => Promise<T>, options: SprintRunOptions = {}): Promise<T> {
    const { checkProject = true, retryOnUniqueViolation = false } = options;
    for (let attempt = 1; ; attempt++) {
      let tx: SprintTx | undefined;
      let told: RecordedNotice[] = [];
      try {
        const result = await this.db.transaction(async (m) => {
          tx = new SprintTx(m, this.db.dialect, projectId, this.clock.now());
          if (checkProject) await requireProject(m, projectId);
          const answer = await work(tx);
          told = await this.notices.record(m, tx.lostClaims);
          return answer;
        });
        this.events.publish(tx!.changes);
        await this.notices.announce(told);
        return result;
      } catch (error) {
        if (retryOnUniqueViolation && attempt < 4 && isUniqueViolation(error)) continue;
        throw error;
      }
    }
  }
}
