import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { HostedDefaultsStore } from '../profile-layers/hosted-defaults.store';
import { Project } from '../projects/project.entity';
import { Session } from '../sessions/session.entity';
import { ChangedFiles } from './git-changes.util';
import { HandoffMode } from './handoff.constants';
import { buildHandoff, HandoffDocument } from './handoff-document.util';
import { GatheredMaterial, HandoffMaterialService } from './handoff-material.service';
import { QueuedSessionsService } from './queued-sessions.service';

/** What a handoff being recorded is: its identity, its author and the changes it reports. */
export interface DraftRequest {
  project: Project;
  mode: HandoffMode;
  session: Session | null;
  /** When the project's previous handoff was made: a delta reports what came after it. */
  since: Date | null;
  now: Date;
  changes: ChangedFiles;
  handoffId: string;
  token: string;
  expiresAt: Date;
  summary?: string;
  /** Written by Baton at a close: marked so, and a queued goal stays for a handoff someone asks for. */
  automatic?: boolean;
}

export interface HandoffDraft {
  doc: HandoffDocument;
  material: GatheredMaterial;
  queuedGoal: string | null;
  /** The MCP tools served now, hashed: the record keeps it, accept_handoff compares it. */
  toolsSha256: string;
}

/**
 * Writes a handoff's document from the project's state, inside the caller's transaction: the
 * material of its mode, and the goal queued for the next session, which a recorded handoff takes.
 */
@Injectable()
export class HandoffDrafts {
  constructor(
    private readonly material: HandoffMaterialService,
    private readonly queue: QueuedSessionsService,
    private readonly hostedDefaults: HostedDefaultsStore,
  ) {}

  /** Settings and the profile extra resolve hosted defaults: bring them up to date before a tenant connection is held. */
  warm(): Promise<void> {
    return this.hostedDefaults.warm();
  }

  async draft(m: EntityManager, request: DraftRequest): Promise<HandoffDraft> {
    const { project, mode, session, since, now, changes, handoffId, token, expiresAt, summary, automatic } = request;
    const material = await this.material.gather(m, project, mode, session, since, now, changes);
    const queuedGoal = automatic ? null : await this.queue.take(m, project.id);
    const doc = buildHandoff({ ...material, handoffId, token, expiresAt, summary, queuedGoal, automatic });
    return { doc, material, queuedGoal, toolsSha256: this.material.toolsSha256() };
  }

  /** A planner handoff as it would be now: nothing recorded, no queued goal taken. */
  async preview(m: EntityManager, project: Project, since: Date | null, now: Date): Promise<HandoffDocument> {
    const material = await this.material.gather(m, project, 'planner', null, since, now, { files: [] });
    return buildHandoff({ ...material, handoffId: null, token: null, expiresAt: null, queuedGoal: null });
  }
}
