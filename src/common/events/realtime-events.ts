import { Injectable } from '@nestjs/common';
import { EventEmitter } from 'node:events';

/** Something that happened in one tenant, for that tenant's connected dashboards. */
export interface RealtimeEvent {
  tenantId: string;
  event: string;
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

  publish(event: RealtimeEvent): void {
    if (this.relay) this.relay(event);
    else this.deliverLocal(event);
  }

  /** Hands every published event to `relay`, which must deliver it locally too (see deliverLocal). */
  setRelay(relay: ((event: RealtimeEvent) => void) | undefined): void {
    this.relay = relay;
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
