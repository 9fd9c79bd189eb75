import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { requireProject } from '../projects/require-project.util';
import { DEFAULT_PAGE_SIZE } from '../tasks/dto/page-query.dto';
import { CreateInsightDto } from './dto/create-insight.dto';
import { ListInsightsQueryDto } from './dto/list-insights-query.dto';
import { Insight } from './insight.entity';
import { InsightView, toInsightView } from './insight.view';
import { KnowledgeEvents } from './knowledge-events.service';

/** Insights of a project, each with a horizon (permanent, year, quarter; default quarter). */
@Injectable()
export class InsightsService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly knowledge: KnowledgeEvents,
  ) {}

  async list(projectId: string, query: ListInsightsQueryDto): Promise<InsightView[]> {
    const insights = await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      return m.find(Insight, {
        where: { project_id: projectId, ...(query.horizon ? { horizon: query.horizon } : {}) },
        order: { created_at: 'DESC', id: 'DESC' },
        take: query.limit ?? DEFAULT_PAGE_SIZE,
        skip: query.offset ?? 0,
      });
    });
    return insights.map(toInsightView);
  }

  async create(projectId: string, input: CreateInsightDto): Promise<InsightView> {
    return this.knowledge.after(
      projectId,
      'insights',
      this.db.transaction(async (m) => {
        await requireProject(m, projectId);
        const insight: Insight = {
          id: randomUUID(),
          project_id: projectId,
          title: input.title,
          body: input.body ?? '',
          horizon: input.horizon ?? 'quarter',
          created_at: this.clock.now(),
        };
        await m.insert(Insight, insight);
        return toInsightView(insight);
      }),
    );
  }
}
