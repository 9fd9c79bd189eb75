import { Injectable } from '@nestjs/common';
import { currentTenant } from '../../../libs/tenancy';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { toSprintItemView } from './sprint-item.view';
import { SprintChange } from './sprint-tx';

/** Tells the tenant's dashboards about every change of a sprint item (`sprint_item_changed`). */
@Injectable()
export class SprintEvents {
  constructor(private readonly events: RealtimeEvents) {}

  publish(changes: SprintChange[]): void {
    if (changes.length === 0) return;
    const tenantId = currentTenant().tenantId;
    for (const c of changes) {
      this.events.publish({
        tenantId,
        event: 'sprint_item_changed',
        data: { project_id: c.projectId, change: c.change, item_id: c.itemId, item: c.item ? toSprintItemView(c.item) : null },
      });
    }
  }
}
