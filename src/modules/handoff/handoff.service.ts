import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { currentTenant, TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { RequestError } from '../../common/errors/request-error';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { SessionError } from '../sessions/sessions.errors';
import { HandoffHooks } from '../../common/extensions/handoff-hooks';
import { requireProject } from '../projects/require-project.util';
import { GenerateHandoffDto } from './dto/generate-handoff.dto';
import { HandoffMode } from './handoff.constants';
import { CarriedWork, HandoffCarry } from './handoff-carry.service';
import { Handoff } from './handoff.entity';
import { requireSessionOf } from './handoff-corrections.service';
import { HandoffDrafts } from './handoff-drafts.service';
import { HandoffFiles } from './handoff-files.service';
import type { ChangedFiles } from './git-changes.util';
import { HandoffTokens } from './handoff-tokens.service';
import { HandoffLedger, HandoffSummary } from './handoff-ledger.service';

export interface HandoffAnswer {
  /** Self-hosted: where the file was written. Hosted: a relative name to save the content under (nothing is written on the server). */
  file_path: string;
  content: string;
  handoff_id: string;
  token: string;
  mode: HandoffMode;
  bytes: number;
  budget_bytes: number;
  truncated: boolean;
  expires_at: string;
  queued_goal_included: boolean;
  changed_files: string[];
  /** With `carry`: the work now held for whoever accepts the handoff; null otherwise. */
  carried: CarriedWork | null;
  /** Written by Baton when a session closed without a handoff since its last activity. */
  automatic: boolean;
}

/**
 * Handoffs (spec §4 Handoff): a document for whoever works on the project
 * next, recorded so it can be checked later (accept_handoff) and started
 * from once (start_session with its token).
 */
@Injectable()
export class HandoffService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly drafts: HandoffDrafts,
    private readonly hooks: HandoffHooks,
    private readonly carry: HandoffCarry,
    private readonly files: HandoffFiles,
    private readonly tokens: HandoffTokens,
    private readonly ledger: HandoffLedger,
    private readonly events: RealtimeEvents,
  ) {}

  /** The project's handoffs, newest first (the dashboard's list). */
  async list(projectId: string, limit = 50): Promise<HandoffSummary[]> {
    return this.db.read(async (m) => {
      await requireProject(m, projectId);
      return this.ledger.list(m, projectId, limit);
    });
  }

  async generate(projectId: string, input: GenerateHandoffDto): Promise<HandoffAnswer> {
    await this.drafts.warm();
    const changes = await this.files.recentChanges(projectId);
    const answer = await this.db.transaction((m) => this.generateIn(m, projectId, input, changes));
    this.announce(projectId, answer);
    return answer;
  }

  /**
   * Writes a handoff inside the caller's transaction. `automatic`: Baton writes it for a session
   * that closed without one (marked so, and it leaves a queued goal for a handoff a person asks for).
   */
  async generateIn(m: EntityManager, projectId: string, input: GenerateHandoffDto, changes: ChangedFiles, options: { automatic?: boolean } = {}): Promise<HandoffAnswer> {
    const automatic = options.automatic === true;
    const project = await requireProject(m, projectId);
    const session = input.session_id ? await requireSessionOf(m, projectId, input.session_id) : null;
    if (input.carry && !session) throw RequestError.invalidInput('carry needs session_id: the session whose work the handoff carries');
    if (input.carry && session?.status !== 'active') throw SessionError.closed(input.session_id as string);
    // Hooks first (the sprint module fills touches_files), so the sections show their result.
    await this.hooks.runAll(m, { projectId, changedFiles: changes.files });
    const previous = await m.findOne(Handoff, { where: { project_id: projectId }, order: { created_at: 'DESC', id: 'DESC' } });
    const mode: HandoffMode = input.mode ?? (previous ? 'delta' : 'goal');
    const now = this.clock.now();
    const id = randomUUID();
    const { token, sha256: tokenSha256, expiresAt } = this.tokens.issue(now);
    // Before the material is read: the handoff shows the carried work as held for it.
    const carried = input.carry && session ? await this.carry.take(m, session, id, expiresAt) : null;
    // A delta reports what happened since the previous handoff someone asked for: the automatic ones
    // written at closes in between are part of that story, not its start.
    const previousWritten = previous?.automatic
      ? await m.findOne(Handoff, { where: { project_id: projectId, automatic: false }, order: { created_at: 'DESC', id: 'DESC' } })
      : previous;
    const since = previousWritten?.created_at ?? null;
    const { doc, material, queuedGoal, toolsSha256 } = await this.drafts.draft(m, {
      project,
      mode,
      session,
      since,
      now,
      changes,
      handoffId: id,
      token,
      expiresAt,
      summary: input.summary,
      automatic,
    });
    const fileName = this.files.fileName(now, mode, id);
    await m.insert(Handoff, {
      id,
      project_id: projectId,
      session_id: session?.id ?? null,
      mode,
      // Shown once, in this answer; the row keeps only its hash, as for API tokens.
      token_sha256: tokenSha256,
      file_name: fileName,
      content: this.tokens.masked(doc.content, token),
      body_sha256: doc.bodySha256,
      board_sha256: material.boardSha256,
      tools_sha256: toolsSha256,
      bytes: doc.bytes,
      created_at: now,
      expires_at: expiresAt,
      consumed_at: null,
      consumed_by_session_id: null,
      carrier_session_id: carried?.carrierId ?? null,
      automatic,
    });
    // Written inside the transaction: a file that cannot be written leaves no record behind.
    const filePath = await this.files.store(projectId, fileName, doc.content);
    return {
      file_path: filePath,
      content: doc.content,
      handoff_id: id,
      token,
      mode,
      bytes: doc.bytes,
      budget_bytes: doc.budgetBytes,
      truncated: doc.truncated,
      expires_at: expiresAt.toISOString(),
      queued_goal_included: queuedGoal !== null,
      changed_files: changes.files,
      carried: carried?.carried ?? null,
      automatic,
    };
  }

  /** Tells the dashboards a handoff was generated (once its transaction has committed). */
  announce(projectId: string, answer: HandoffAnswer): void {
    const handoff = { id: answer.handoff_id, mode: answer.mode, expires_at: answer.expires_at, carried: answer.carried, automatic: answer.automatic };
    this.events.publish({ tenantId: currentTenant().tenantId, event: 'handoff_generated', data: { project_id: projectId, handoff } });
  }

  /** A planner handoff as it would be now: nothing recorded, no queued goal taken, no hooks run. */
  async planner(projectId: string) {
    await this.drafts.warm();
    return this.db.transaction(async (m) => {
      const project = await requireProject(m, projectId);
      const previous = await m.findOne(Handoff, { where: { project_id: projectId }, order: { created_at: 'DESC', id: 'DESC' } });
      const doc = await this.drafts.preview(m, project, previous?.created_at ?? null, this.clock.now());
      return { mode: 'planner' as const, content: doc.content, bytes: doc.bytes, budget_bytes: doc.budgetBytes, truncated: doc.truncated };
    });
  }
}
