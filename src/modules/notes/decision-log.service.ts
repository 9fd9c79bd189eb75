import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { requireProject } from '../projects/require-project.util';
import { DEFAULT_PAGE_SIZE, PageQueryDto } from '../tasks/dto/page-query.dto';
import { requireSessionOf } from '../tasks/session-of-project.util';
import { DecisionLogEntry } from './decision-log-entry.entity';
import { DecisionLogEntryView, toDecisionLogEntryView } from './decision-log-entry.view';
import { LogDecisionDto } from './dto/log-decision.dto';
import { KnowledgeEvents } from './knowledge-events.service';

/** The decision log of a project: append-only, newest first. */
@Injectable()
export class DecisionLogService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly knowledge: KnowledgeEvents,
  ) {}

  async append(projectId: string, input: LogDecisionDto): Promise<DecisionLogEntryView> {
    return this.knowledge.after(
      projectId,
      'decision_log',
      this.db.transaction(async (m) => {
        await requireProject(m, projectId);
        if (input.session_id) await requireSessionOf(m, input.session_id, projectId);
        const entry: DecisionLogEntry = {
          id: randomUUID(),
          project_id: projectId,
          title: input.title,
          body: input.body ?? '',
          human_id: input.human_id ?? null,
          session_id: input.session_id ?? null,
          created_at: this.clock.now(),
          superseded_by_id: null,
        };
        await m.insert(DecisionLogEntry, entry);
        return toDecisionLogEntryView(entry);
      }),
    );
  }

  async list(projectId: string, page: PageQueryDto): Promise<DecisionLogEntryView[]> {
    const entries = await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      return m.find(DecisionLogEntry, {
        where: { project_id: projectId },
        order: { created_at: 'DESC', id: 'DESC' },
        take: page.limit ?? DEFAULT_PAGE_SIZE,
        skip: page.offset ?? 0,
      });
    });
    return entries.map(toDecisionLogEntryView);
  }
}
