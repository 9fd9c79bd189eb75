import { Injectable } from '@nestjs/common';
import { currentTenant } from '../../../libs/tenancy';
import { RealtimeEvents } from '../../common/events/realtime-events';

/** What changed in a project's knowledge: its pinned decisions, its decision log, its notes or its insights. */
export type KnowledgeKind = 'pinned_decisions' | 'decision_log' | 'notes' | 'insights';

/** Tells the tenant's dashboards that a project's knowledge changed (`knowledge_changed {project_id, kind}`), once the change is committed. */
@Injectable()
export class KnowledgeEvents {
  constructor(private readonly events: RealtimeEvents) {}

  /** Waits for `change` (a committed transaction) and publishes; a refused change publishes nothing. */
  async after<T>(projectId: string, kind: KnowledgeKind, change: Promise<T>): Promise<T> {
    const result = await change;
    this.events.publish({ tenantId: currentTenant().tenantId, event: 'knowledge_changed', data: { project_id: projectId, kind } });
    return result;
  }
}
