import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { EntityManager, In, IsNull, MoreThan, Not } from 'typeorm';
import { Clock } from '../../common/clock';
import { Session } from '../sessions/session.entity';
import { Handoff } from './handoff.entity';
import { CarriedWork, HandoffCarry } from './handoff-carry.service';
import { HandoffError } from './handoff.errors';
import { parseFrontMatter } from './front-matter.util';
import { HandoffTokens } from './handoff-tokens.service';
import { HandoffMeta, HandoffSummary } from './handoff.view';

export type HandoffProblemCode = 'not_found' | 'wrong_project' | 'expired' | 'already_consumed' | 'body_mismatch' | 'stale' | 'board_diverged' | 'tools_drifted';

export interface HandoffProblem {
  code: HandoffProblemCode;
  detail: string;
}

export interface HandoffRef {
  handoff_id?: string;
  token?: string;
}

export type { HandoffMeta, HandoffSummary } from './handoff.view';

/** A handoff waiting for a session to start from it. */
export interface WaitingHandoff {
  handoff_id: string;
  mode: string;
  from_session_id: string | null;
  from_session_name: string | null;
  generated_at: string;
  expires_at: string;
  /** The work held for whoever takes it (null: it carries none). */
  carries: CarriedWork | null;
}

export interface ConsumedHandoff {
  id: string;
  mode: string;
  created_at: string;
  content: string;
  /** The work the handoff carried, now this session's (null: it carried none). */
  carried: CarriedWork | null;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function toHandoffMeta(h: Handoff): HandoffMeta {
  return {
    id: h.id,
    project_id: h.project_id,
    session_id: h.session_id,
    mode: h.mode,
    bytes: h.bytes,
    created_at: h.created_at.toISOString(),
    expires_at: h.expires_at.toISOString(),
    consumed_at: h.consumed_at ? h.consumed_at.toISOString() : null,
    consumed_by_session_id: h.consumed_by_session_id,
    automatic: Boolean(h.automatic),
  };
}

/**
 * The record of generated handoffs: finding one by id or token, the checks
 * that make it unusable (another project, expired, already used, altered),
 * and its single use by the session that starts from it.
 */
@Injectable()
export class HandoffLedger {
  constructor(
    private readonly clock: Clock,
    private readonly carry: HandoffCarry,
    private readonly tokens: HandoffTokens,
  ) {}

  /**
   * The project's newest handoff while nobody has started from it and it has not expired: the
   * one a new session is told about (start_session, the context block) and may take by its id.
   */
  async waiting(m: EntityManager, projectId: string): Promise<WaitingHandoff | null> {
    let newest = await m.findOne(Handoff, { where: { project_id: projectId }, order: { created_at: 'DESC', id: 'DESC' } });
    if (newest?.automatic) {
      // A handoff written at a close does not hide one that holds work for whoever takes it.
      const carrying = await m.findOne(Handoff, {
        where: { project_id: projectId, consumed_at: IsNull(), carrier_session_id: Not(IsNull()), expires_at: MoreThan(this.clock.now()) },
        order: { created_at: 'DESC', id: 'DESC' },
      });
      newest = carrying ?? newest;
    }
    if (!newest || newest.consumed_at || newest.expires_at.getTime() <= this.clock.now().getTime()) return null;
    const author = newest.session_id ? await m.findOneBy(Session, { id: newest.session_id }) : null;
    const carries = newest.carrier_session_id ? await this.carry.heldBy(m, newest.carrier_session_id) : null;
    return {
      handoff_id: newest.id,
      mode: newest.mode,
      from_session_id: newest.session_id,
      from_session_name: author?.name ?? null,
      generated_at: newest.created_at.toISOString(),
      expires_at: newest.expires_at.toISOString(),
      carries,
    };
  }

  /**
   * The project's handoffs, newest first: who wrote each, whether a session started from it (and
   * which), and what a waiting one still holds for whoever takes it.
   */
  async list(m: EntityManager, projectId: string, limit: number): Promise<HandoffSummary[]> {
    const handoffs = await m.find(Handoff, { where: { project_id: projectId }, order: { created_at: 'DESC', id: 'DESC' }, take: limit });
    const ids = [...new Set(handoffs.flatMap((h) => [h.session_id, h.consumed_by_session_id]).filter((id): id is string => id !== null))];
    const names = new Map((ids.length ? await m.find(Session, { where: { id: In(ids) }, select: { id: true, name: true } }) : []).map((s) => [s.id, s.name]));
    const now = this.clock.now().getTime();
    const summaries: HandoffSummary[] = [];
    for (const h of handoffs) {
      const waiting = !h.consumed_at && h.expires_at.getTime() > now;
      summaries.push({
        ...toHandoffMeta(h),
        status: h.consumed_at ? 'accepted' : waiting ? 'waiting' : 'expired',
        from_session_name: h.session_id ? (names.get(h.session_id) ?? null) : null,
        consumed_by_session_name: h.consumed_by_session_id ? (names.get(h.consumed_by_session_id) ?? null) : null,
        carries: waiting && h.carrier_session_id ? await this.carry.heldBy(m, h.carrier_session_id) : null,
      });
    }
    return summaries;
  }

  async find(m: EntityManager, ref: HandoffRef): Promise<Handoff | null> {
    if (ref.handoff_id) return m.findOneBy(Handoff, { id: ref.handoff_id });
    if (ref.token) return m.findOneBy(Handoff, { token_sha256: this.tokens.hash(ref.token) });
    return null;
  }

  /** The problems that make a handoff unusable, in the order a person would want to hear them. */
  hardProblems(handoff: Handoff | null, projectId: string, ref: string, content?: string): HandoffProblem[] {
    if (!handoff) return [{ code: 'not_found', detail: `no handoff ${ref} in this workspace` }];
    if (handoff.project_id !== projectId) return [{ code: 'wrong_project', detail: `handoff ${ref} belongs to another project` }];
    const problems: HandoffProblem[] = [];
    if (handoff.expires_at.getTime() <= this.clock.now().getTime()) {
      problems.push({ code: 'expired', detail: `handoff expired at ${handoff.expires_at.toISOString()}` });
    }
    if (handoff.consumed_at) {
      problems.push({ code: 'already_consumed', detail: `session ${handoff.consumed_by_session_id ?? 'unknown'} already started from this handoff` });
    }
    if (content !== undefined) {
      const parsed = parseFrontMatter(content);
      if (!parsed) problems.push({ code: 'body_mismatch', detail: 'the content given does not start with handoff front matter' });
      else if (parsed.fields.handoff_id !== handoff.id) problems.push({ code: 'body_mismatch', detail: 'the content given is another handoff' });
      else if (sha256(parsed.body) !== handoff.body_sha256) problems.push({ code: 'body_mismatch', detail: 'the content was changed after it was generated' });
    }
    return problems;
  }

  /**
   * Marks the handoff named by `ref` (its token, or its id) used by `sessionId`, and hands the
   * session the work it carries; refuses one of another project, expired or already used.
   */
  async consume(m: EntityManager, projectId: string, ref: HandoffRef, sessionId: string): Promise<ConsumedHandoff> {
    const handoff = await this.find(m, ref);
    const token = ref.token ?? ref.handoff_id ?? '';
    if (!handoff) throw HandoffError.notFound(token);
    if (handoff.project_id !== projectId) throw HandoffError.wrongProject(token, projectId);
    if (handoff.consumed_at) throw HandoffError.alreadyConsumed(token, handoff.consumed_by_session_id);
    if (handoff.expires_at.getTime() <= this.clock.now().getTime()) throw HandoffError.expired(token, handoff.expires_at);
    // Conditional: of two sessions starting from one token at once, one wins.
    const result = await m.update(Handoff, { id: handoff.id, consumed_at: IsNull() }, { consumed_at: this.clock.now(), consumed_by_session_id: sessionId });
    if (!result.affected) {
      const now = await m.findOneBy(Handoff, { id: handoff.id });
      throw HandoffError.alreadyConsumed(token, now?.consumed_by_session_id ?? null);
    }
    const carried = handoff.carrier_session_id ? await this.carry.deliver(m, handoff.carrier_session_id, sessionId) : null;
    // With its id rather than its token, the stored content keeps the token masked: it was shown once, to its author.
    const content = ref.token ? this.tokens.unmasked(handoff.content, ref.token) : handoff.content;
    return { id: handoff.id, mode: handoff.mode, created_at: handoff.created_at.toISOString(), content, carried };
  }
}
