import { Injectable, Optional } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import { Metrics } from '../observability/metrics';

/**
 * Every event name the dashboard WebSocket carries from this bus, as `{event, data}` frames (the
 * gateway itself greets a new connection with `connected`). Publishing another name is a compile
 * error: a dashboard listens for these names only.
 */
export type RealtimeEventName =
  | 'project_created'
  | 'project_renamed'
  | 'project_deleted'
  | 'session_started'
  | 'session_closed'
  | 'session_seen'
  | 'file_lock_claimed'
  | 'file_lock_released'
  | 'handoff_generated'
  | 'handoff_accepted'
  | 'ai_log_written'
  | 'sprint_item_changed'
  | 'goal_changed'
  | 'task_logged'
  | 'task_changed'
  | 'hitl_created'
  | 'hitl_answered'
  | 'hitl_dismissed'
  | 'message_sent'
  | 'knowledge_changed'
  | 'project_settings_changed'
  | 'profile_changed'
  | 'tokens_changed'
  | 'members_changed'
  | 'web_sessions_changed'
  | 'push_budget_warning'
  | 'push_budget_exhausted';

/**
 * The `tenantId` of an event for every workspace's dashboards (a change of the operator's
 * hosted_default layers, which every workspace inherits). It is delivered on this instance only:
 * a relay to others would go to each workspace's channel in turn.
 */
export const EVERY_TENANT = '*';

/** Something that happened in one tenant, for that tenant's connected dashboards. */
export interface RealtimeEvent {
  tenantId: string;
  /**
   * An event about one person rather than a workspace (their web sessions): delivered to that
   * account's own connections only, whichever workspace each is open on; `tenantId` then names
   * the workspace whose channel carries it to other instances.
   */
  accountId?: string;
  event: RealtimeEventName;
  data: Record<string, unknown>;
}

/**
 * Bus between the domain and the WebSocket gateway: services publish, the
 * gateway delivers to the tenant's own clients only. When push is configured
 * a relay carries each event to every instance through Redis (the dashboard
 * of a tenant may be connected to another instance than the one that made the
 * change); without one, or when push is not available, delivery is local.
 */
@Injectable()
export class RealtimeEvents {
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  private relay?: (event: RealtimeEvent) => void;
  private readonly countEvent?: (event?: string) => void;
  private readonly countSprintChange?: (change?: string) => void;

  constructor(@Optional() metrics?: Metrics) {
    this.countEvent = metrics?.counter('baton_events_total', 'Changes made on this instance, by event name (file_lock_claimed, hitl_created, ...)', 'event');
    this.countSprintChange = metrics?.counter(
      'baton_sprint_item_changes_total',
      'Sprint item changes made on this instance, by kind (claimed, completed, released, ...)',
      'change',
    );
  }

  publish(event: RealtimeEvent): void {
    this.countOrigin(event);
    if (this.relay && event.tenantId !== EVERY_TENANT) this.relay(event);
    else this.deliverLocal(event);
  }

  /** Hands every published event to `relay`, which must deliver it locally too (see deliverLocal). */
  setRelay(relay: ((event: RealtimeEvent) => void) | undefined): void {
    this.relay = relay;
  }

  /** Counts, in the metrics, an event this instance made (publish here or through the push service), not one relayed from another. */
  countOrigin(event: Pick<RealtimeEvent, 'event' | 'data'>): void {
    this.countEvent?.(event.event);
    if (event.event === 'sprint_item_changed' && typeof event.data.change === 'string') this.countSprintChange?.(event.data.change);
  }

  /** Delivers to this instance's connected dashboards only. */
  deliverLocal(event: RealtimeEvent): void {
    this.emitter.emit('event', event);
  }

  subscribe(listener: (event: RealtimeEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }
}
