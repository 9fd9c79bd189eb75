import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ExtensionRegistry } from './extension-registry';

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
export class StartSessionExtras extends ExtensionRegistry<StartSessionExtra> {
  constructor() {
    super('start-session extra');
  }

  async collect(manager: EntityManager, input: StartSessionExtrasInput): Promise<Record<string, unknown>> {
    return Object.fromEntries(await this.runInOrder((extra) => extra(manager, input)));
  }
}
