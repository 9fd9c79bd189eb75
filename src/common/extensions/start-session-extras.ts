import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

export interface StartSessionExtrasInput {
  projectId: string;
  /** The session being started, or the session a handoff is generated for (may be absent). */
  sessionId?: string;
  humanId?: string;
}

export type StartSessionExtra = (manager: EntityManager, input: StartSessionExtrasInput) => Promise<Record<string, unknown>>;

/**
 * Fields other modules add to the `start_session` answer and to generated
 * handoffs (the profile module adds `profile`, for example), so those
 * answers grow without the session module knowing every contributor.
 * Each contributor's object is merged under the name it registered.
 */
@Injectable()
export class StartSessionExtras {
  private readonly extras = new Map<string, StartSessionExtra>();

  register(name: string, extra: StartSessionExtra): void {
    if (this.extras.has(name)) throw new Error(`start-session extra ${name} registered twice`);
    this.extras.set(name, extra);
  }

  async collect(manager: EntityManager, input: StartSessionExtrasInput): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const [name, extra] of this.extras) out[name] = await extra(manager, input);
    return out;
  }
}
