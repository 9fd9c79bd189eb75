import { Injectable } from '@nestjs/common';
import { EntityManager, EntityTarget, FindOptionsOrder, FindOptionsWhere, In, Not, ObjectLiteral } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { ToolRegistry } from '../../mcp/tool-registry.service';
import { AiLogEvent } from '../ai-log/ai-log-event.entity';
import { AiLogRecorder } from '../ai-log/ai-log-recorder.service';
import { HandoffCorrection } from '../handoff/handoff-correction.entity';
import { Handoff } from '../handoff/handoff.entity';
import { HitlRequest } from '../hitl/hitl-request.entity';
import { DecisionLogEntry } from '../notes/decision-log-entry.entity';
import { PinnedDecision } from '../notes/pinned-decision.entity';
import { requireProject } from '../projects/require-project.util';
import { Session } from '../sessions/session.entity';
import { SprintItem } from '../sprint/sprint-item.entity';
import { Task } from '../tasks/task.entity';
import { attributionEvents, AttributionRecords } from './attribution-entries.util';
import { sealLedger } from './attribution-ledger.util';
import { renderAttributionPdf } from './attribution-pdf.util';
import { ATTRIBUTION_ENTRY_LIMIT, UNATTRIBUTED_TOOLS } from './attribution.constants';

export interface AttributionReport {
  file_name: string;
  pdf: Buffer;
}

/** The tamper-evident attribution report of a project: who did what and when, hash-chained, as a PDF. */
@Injectable()
export class AttributionService {
  constructor(
    private readonly db: TenantDb,
    private readonly recorder: AiLogRecorder,
    private readonly tools: ToolRegistry,
    private readonly clock: Clock,
  ) {}

  async report(projectId: string): Promise<AttributionReport> {
    // Tool calls answered before this request are in the report.
    await this.recorder.flush();
    const limit = ATTRIBUTION_ENTRY_LIMIT;
    const { project, records, since } = await this.db.transaction(async (m) => {
      const project = await requireProject(m, projectId);
      const loaded = await this.records(m, projectId, limit);
      return { project, ...loaded };
    });
    // Past a kind's limit its older rows were not read: older entries of the other kinds are left out too, so what is shown has no holes.
    const events = attributionEvents(records).filter((e) => !since || e.at >= since);
    const complete = !since && events.length <= limit;
    const header = { project_id: project.id, project_name: project.name, generated_at: this.clock.now().toISOString(), entry_limit: limit, complete };
    const ledger = sealLedger(header, events.slice(-limit));
    const pdf = await renderAttributionPdf(ledger);
    return { file_name: `baton-attribution-${project.id}-${header.generated_at.slice(0, 10)}.pdf`, pdf };
  }

  /**
   * The newest `limit` rows of each kind of record (a row gives one or more entries). `since`: when a
   * kind had more rows, the time of the oldest row read of the kind cut latest (else null).
   */
  private async records(m: EntityManager, projectId: string, limit: number): Promise<{ records: AttributionRecords; since: string | null }> {
    let since: string | null = null;
    const newest = async <T extends ObjectLiteral>(entity: EntityTarget<T>, order: FindOptionsOrder<T>, where: FindOptionsWhere<T> = {}): Promise<T[]> => {
      const rows = await m.find(entity, { where: { ...where, project_id: projectId } as FindOptionsWhere<T>, order, take: limit + 1 });
      if (rows.length <= limit) return rows;
      const oldest = (rows[limit - 1][Object.keys(order)[0]] as Date).toISOString();
      if (!since || oldest > since) since = oldest;
      return rows.slice(0, limit);
    };
    const unattributed = [
      ...UNATTRIBUTED_TOOLS,
      ...this.tools
        .list()
        .filter((t) => t.annotations.readOnlyHint)
        .map((t) => t.name),
    ];
    const records: AttributionRecords = {
      sessions: await newest(Session, { created_at: 'DESC' }),
      tasks: await newest(Task, { created_at: 'DESC' }),
      items: await newest(SprintItem, { added_at: 'DESC' }),
      questions: await newest(HitlRequest, { created_at: 'DESC' }),
      decisions: await newest(DecisionLogEntry, { created_at: 'DESC' }),
      pinned: await newest(PinnedDecision, { created_at: 'DESC' }),
      handoffs: await newest(Handoff, { created_at: 'DESC' }),
      corrections: await newest(HandoffCorrection, { created_at: 'DESC' }),
      toolCalls: await newest(AiLogEvent, { occurred_at: 'DESC', seq: 'DESC' }, { kind: 'tool_call', outcome: 'ok', tool: Not(In(unattributed)) }),
    };
    return { records, since };
  }
}
