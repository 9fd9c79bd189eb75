import { Injectable } from '@nestjs/common';
import { EventEmitter } from 'node:events';

/** Something that happened in one tenant, for that tenant's connected dashboards. */
export interface RealtimeEvent {
  tenantId: string;
  event: string;
  data: Record<string, unknown>;
}

/**
 * In-process bus between the domain and the WebSocket gateway: services
 * publish, the gateway delivers to the tenant's own clients only.
 */
@Injectable()
export class RealtimeEvents {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  publish(event: RealtimeEvent): void {
    this.emitter.emit('event', event);
  }

  subscribe(listener: (event: RealtimeEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }
}
