import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DomainEvents } from '../../common/events/domain-events';
import { HostedDefaultsStore } from '../profile-layers/hosted-defaults.store';
import { ProfileResolver } from '../profile-layers/profile-resolver.service';
import { Session } from '../sessions/session.entity';
import { SessionError } from '../sessions/sessions.errors';
import { VerifySprintItemDto } from './dto/transition.dto';
import { SprintDb } from './sprint-db.service';
import { SprintItem } from './sprint-item.entity';
import { SprintItemVerification } from './sprint-item-verification.entity';
import { SprintItemView, toSprintItemView } from './sprint-item.view';
import { appendNote, requireItem } from './sprint-store.util';
import { SprintTx } from './sprint-tx';
import { TERMINAL_STATUSES } from './sprint.constants';
import { SprintError } from './sprint.errors';

export type VerificationMode = 'off' | 'advisory' | 'strict';

export interface VerificationView {
  id: string;
  item_id: string;
  session_id: string | null;
  session_name: string;
  passed: boolean;
  note: string | null;
  created_at: string;
}

export interface VerifyResult {
  verification: VerificationView;
  item: SprintItemView;
  /** Whether a completion now passes the verification gate (a pass by a session other than the claimer stands). */
  verified: boolean;
}

/** Statuses whose work can be verified: someone claimed it, or completed it provisionally. */
const VERIFIABLE = ['in_progress', 'provisional_complete'];

/**
 * Verification before completion (`claim_verification_mode`, resolved through the profile
 * layers): `off` completes as before; `advisory` completes and warns when no other session
 * verified the work; `strict` refuses completion (VERIFICATION_REQUIRED) until a session other
 * than the claimer recorded a pass since the item was claimed.
 */
@Injectable()
export class SprintVerifications {
  constructor(
    private readonly sprint: SprintDb,
    private readonly profiles: ProfileResolver,
    private readonly hostedDefaults: HostedDefaultsStore,
    private readonly domainEvents: DomainEvents,
  ) {}

  /** Call before the transaction that completes items: brings the hosted defaults' copy up to date. */
  warm(): Promise<void> {
    return this.hostedDefaults.warm();
  }

  async verify(projectId: string, ref: string, input: VerifySprintItemDto): Promise<VerifyResult> {
    await this.warm();
    const result = await this.sprint.run(projectId, async (tx) => {
      const { m } = tx;
      const item = await requireItem(m, projectId, ref);
      const session = await m.findOneBy(Session, { id: input.session_id });
      if (!session) throw SessionError.notFound(input.session_id);
      if (session.project_id !== projectId) throw SprintError.sessionProjectMismatch(session.id);
      if (session.status !== 'active') throw SessionError.closed(session.id);
      if (TERMINAL_STATUSES.includes(item.status)) throw SprintError.itemTerminal(item.slug, item.status, 'verify');
      if (!VERIFIABLE.includes(item.status)) throw SprintError.nothingToVerify(item.slug, item.status);
      if (input.passed && item.claimed_by_session_id === session.id) throw SprintError.selfVerification(item.slug, session.id);
      const note = input.note?.trim() ? input.note : null;
      const row: SprintItemVerification = {
        id: randomUUID(),
        project_id: projectId,
        item_id: item.id,
        session_id: session.id,
        session_name: session.name,
        passed: input.passed,
        note,
        created_at: tx.now,
      };
      await m.insert(SprintItemVerification, row);
      // The item's notes are its running history: the verification is written there too.
      const line = input.passed
        ? `Verified by session ${session.name} (${session.id})${note ? `: ${note}` : ''}`
        : `Verification failed by session ${session.name} (${session.id})${note ? `: ${note}` : ''}`;
      const next: SprintItem = { ...item, notes: appendNote(item.notes, line), updated_at: tx.now };
      const written = await m.update(SprintItem, { id: item.id, project_id: projectId, status: item.status }, { notes: next.notes, updated_at: next.updated_at });
      if (!written.affected) throw SprintError.statusRace(item.slug);
      // Verifying is activity of the verifying session.
      await m.update(Session, { id: session.id }, { last_seen: tx.now });
      tx.changed('verified', next);
      return { verification: toVerificationView(row), item: toSprintItemView(next), verified: await this.passes(tx, next) };
    });
    const v = result.verification;
    await this.domainEvents.emit('sprint_item.verified', {
      project_id: projectId,
      session_id: v.session_id as string,
      item_id: v.item_id,
      item_slug: result.item.slug,
      passed: v.passed,
      note: v.note,
      verified_at: v.created_at,
    });
    return result;
  }

  /** The item's verifications, newest first. */
  async list(projectId: string, ref: string): Promise<VerificationView[]> {
    return this.sprint.read(projectId, async (tx) => {
      const item = await requireItem(tx.m, projectId, ref);
      const rows = await tx.m.find(SprintItemVerification, { where: { item_id: item.id }, order: { created_at: 'DESC', id: 'DESC' } });
      return rows.map(toVerificationView);
    });
  }

  /**
   * What completing `item` meets under the project's (and the completing session's) mode: throws
   * VERIFICATION_REQUIRED in strict mode without a pass, answers the warning of advisory mode, or null.
   */
  async gate(tx: SprintTx, item: SprintItem, completingSessionId?: string): Promise<string | null> {
    const mode = await this.modeFor(tx, completingSessionId);
    if (mode === 'off') return null;
    if (await this.passes(tx, item, completingSessionId)) return null;
    if (mode === 'strict') throw SprintError.verificationRequired(item.slug, item.claimed_by_session_id);
    return `sprint item ${item.slug} was completed without verification: no session other than the one that did the work recorded a pass (claim_verification_mode is advisory)`;
  }

  /** The newest verification since the item was claimed is a pass by a session that neither holds it nor completes it. */
  private async passes(tx: SprintTx, item: SprintItem, completingSessionId?: string): Promise<boolean> {
    const latest = await tx.m.findOne(SprintItemVerification, { where: { item_id: item.id }, order: { created_at: 'DESC', id: 'DESC' } });
    if (!latest?.passed || latest.session_id === null) return false;
    if (latest.session_id === item.claimed_by_session_id || latest.session_id === completingSessionId) return false;
    return !item.claimed_at || latest.created_at.getTime() >= new Date(item.claimed_at).getTime();
  }

  private async modeFor(tx: SprintTx, sessionId?: string): Promise<VerificationMode> {
    const session = sessionId ? await tx.m.findOneBy(Session, { id: sessionId, project_id: tx.projectId }) : null;
    const value = session
      ? await this.profiles.sessionField(tx.m, tx.projectId, session, 'claim_verification_mode')
      : (await this.profiles.projectFields(tx.m, tx.projectId)).get('claim_verification_mode')?.value;
    return value === 'strict' || value === 'advisory' ? value : 'off';
  }
}

function toVerificationView(row: SprintItemVerification): VerificationView {
  return {
    id: row.id,
    item_id: row.item_id,
    session_id: row.session_id,
    session_name: row.session_name,
    passed: Boolean(row.passed),
    note: row.note,
    created_at: new Date(row.created_at).toISOString(),
  };
}
