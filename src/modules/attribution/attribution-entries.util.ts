import { AiLogEvent } from '../ai-log/ai-log-event.entity';
import { HandoffCorrection } from '../handoff/handoff-correction.entity';
import { Handoff } from '../handoff/handoff.entity';
import { HitlRequest } from '../hitl/hitl-request.entity';
import { DecisionLogEntry } from '../notes/decision-log-entry.entity';
import { PinnedDecision } from '../notes/pinned-decision.entity';
import { Session } from '../sessions/session.entity';
import { SprintItem } from '../sprint/sprint-item.entity';
import { Task } from '../tasks/task.entity';
import { LedgerEntryDraft } from './attribution-ledger.util';

/** The sessions of the project by id: who stands behind a session id. */
export type SessionDirectory = Map<string, Pick<Session, 'id' | 'name' | 'human_id'>>;

/** The records an attribution report is made of, each list newest first. */
export interface AttributionRecords {
  sessions: Session[];
  tasks: Task[];
  items: SprintItem[];
  questions: HitlRequest[];
  decisions: DecisionLogEntry[];
  pinned: PinnedDecision[];
  handoffs: Handoff[];
  corrections: HandoffCorrection[];
  toolCalls: AiLogEvent[];
}

/** `human_id`: the record's own person, else its session's; `person`: exactly this person, whatever the session. */
type Event = Omit<LedgerEntryDraft, 'person' | 'agent'> & { human_id?: string | null; person?: string | null };

function attributed(directory: SessionDirectory, event: Event): LedgerEntryDraft {
  const { human_id, person, ...rest } = event;
  const session = event.session_id ? directory.get(event.session_id) : undefined;
  return { ...rest, person: person !== undefined ? person : human_id || session?.human_id || null, agent: session?.name ?? null };
}

function sessionEvents(s: Session): Event[] {
  const out: Event[] = [
    { at: s.created_at.toISOString(), kind: 'session.started', session_id: s.id, subject_id: s.id, human_id: s.human_id, text: `session ${s.name} (${s.kind}) started` },
  ];
  if (s.closed_at)
    out.push({
      at: s.closed_at.toISOString(),
      kind: 'session.closed',
      session_id: s.id,
      subject_id: s.id,
      human_id: s.human_id,
      text: `session ${s.name} ended (${s.close_reason ?? 'closed'})`,
    });
  return out;
}

function taskEvents(t: Task): Event[] {
  const out: Event[] = [{ at: t.created_at.toISOString(), kind: 'task.logged', session_id: t.session_id, subject_id: t.id, text: `[${t.status}] ${t.description}` }];
  if (t.claimed_at && t.claimed_by) out.push({ at: t.claimed_at.toISOString(), kind: 'task.claimed', session_id: t.claimed_by, subject_id: t.id, text: t.description });
  return out;
}

function itemEvents(i: SprintItem): Event[] {
  const out: Event[] = [{ at: i.added_at.toISOString(), kind: 'sprint_item.added', session_id: null, subject_id: i.id, human_id: i.human_id, text: `${i.title} (${i.version})` }];
  if (i.claimed_at) {
    const by = i.claimant ? ` by ${i.claimant}` : '';
    out.push({ at: i.claimed_at.toISOString(), kind: 'sprint_item.claimed', session_id: i.claimed_by_session_id, subject_id: i.id, text: `${i.title}${by}` });
  }
  if (i.completed_at) {
    const notes = i.notes ? `: ${i.notes}` : '';
    out.push({ at: i.completed_at.toISOString(), kind: `sprint_item.${i.status}`, session_id: i.claimed_by_session_id, subject_id: i.id, text: `${i.title}${notes}` });
  }
  return out;
}

function questionEvents(q: HitlRequest): Event[] {
  const out: Event[] = [{ at: q.created_at.toISOString(), kind: 'hitl.asked', session_id: q.session_id, subject_id: q.id, text: q.question }];
  if (q.answered_at && q.status !== 'pending') {
    const answer = q.status === 'answered' ? (q.answer ?? '') : 'dismissed';
    // A person answers, not the session that asked: the question's id links the two entries.
    out.push({ at: q.answered_at.toISOString(), kind: `hitl.${q.status}`, session_id: null, subject_id: q.id, person: q.answered_by, text: answer });
  }
  return out;
}

function handoffEvents(h: Handoff): Event[] {
  const out: Event[] = [{ at: h.created_at.toISOString(), kind: 'handoff.generated', session_id: h.session_id, subject_id: h.id, text: `${h.file_name} (${h.mode})` }];
  if (h.consumed_at) out.push({ at: h.consumed_at.toISOString(), kind: 'handoff.accepted', session_id: h.consumed_by_session_id, subject_id: h.id, text: h.file_name });
  return out;
}

function toolCallEvent(e: AiLogEvent): Event {
  let args = '';
  try {
    const data = JSON.parse(e.data) as { arguments?: unknown };
    if (data.arguments !== undefined) args = ` ${JSON.stringify(data.arguments)}`;
  } catch {
    // A row whose data is not JSON is still an event: it is shown without its arguments.
  }
  return { at: e.occurred_at.toISOString(), kind: 'tool_call', session_id: e.session_id, subject_id: e.id, text: `${e.tool ?? ''}${args}` };
}

/**
 * Every event the records hold, attributed to a person and an agent through
 * their session, oldest first (ties in a fixed order, so the same records give
 * the same ledger).
 */
export function attributionEvents(records: AttributionRecords): LedgerEntryDraft[] {
  const directory: SessionDirectory = new Map(records.sessions.map((s) => [s.id, s]));
  const events: Event[] = [
    ...records.sessions.flatMap(sessionEvents),
    ...records.tasks.flatMap(taskEvents),
    ...records.items.flatMap(itemEvents),
    ...records.questions.flatMap(questionEvents),
    ...records.decisions.map((d) => ({
      at: d.created_at.toISOString(),
      kind: 'decision.logged',
      session_id: d.session_id,
      subject_id: d.id,
      human_id: d.human_id,
      text: `${d.title}: ${d.body}`,
    })),
    ...records.pinned.flatMap((d): Event[] => [
      { at: d.created_at.toISOString(), kind: 'decision.pinned', session_id: null, subject_id: d.id, human_id: d.human_id, text: `${d.title}: ${d.body}` },
      ...(d.archived_at ? [{ at: d.archived_at.toISOString(), kind: 'decision.archived', session_id: null, subject_id: d.id, human_id: d.human_id, text: d.title }] : []),
    ]),
    ...records.handoffs.flatMap(handoffEvents),
    ...records.corrections.map((c) => ({ at: c.created_at.toISOString(), kind: 'handoff.corrected', session_id: c.session_id, subject_id: c.id, text: c.summary })),
    ...records.toolCalls.map(toolCallEvent),
  ];
  const key = (e: Event) => `${e.at}\u0000${e.kind}\u0000${e.subject_id ?? ''}`;
  events.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return events.map((e) => attributed(directory, e));
}
