import { AiLogEvent } from '../ai-log/ai-log-event.entity';
import { HitlRequest } from '../hitl/hitl-request.entity';
import { DecisionLogEntry } from '../notes/decision-log-entry.entity';
import { Session } from '../sessions/session.entity';
import { attributionEvents, AttributionRecords } from './attribution-entries.util';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
const none: AttributionRecords = { sessions: [], tasks: [], items: [], questions: [], decisions: [], pinned: [], handoffs: [], corrections: [], toolCalls: [] };
const session = { id: 's1', name: 'planner-bot', kind: 'worker', human_id: 'ada', created_at: at(0), closed_at: at(9), close_reason: 'swept' } as Session;

describe('attribution events', () => {
  test('a record without a person of its own is attributed to the person behind its session; one with a person keeps it', () => {
    const decisions = [
      { id: 'd1', title: 'A', body: 'b', human_id: null, session_id: 's1', created_at: at(2) },
      { id: 'd2', title: 'B', body: 'c', human_id: 'grace', session_id: 's1', created_at: at(1) },
    ] as DecisionLogEntry[];
    const events = attributionEvents({ ...none, sessions: [session], decisions });
    expect(events.map((e) => [e.at, e.kind, e.person, e.agent, e.text])).toEqual([
      [at(0).toISOString(), 'session.started', 'ada', 'planner-bot', 'session planner-bot (worker) started'],
      [at(1).toISOString(), 'decision.logged', 'grace', 'planner-bot', 'B: c'],
      [at(2).toISOString(), 'decision.logged', 'ada', 'planner-bot', 'A: b'],
      [at(9).toISOString(), 'session.closed', 'ada', 'planner-bot', 'session planner-bot ended (swept)'],
    ]);
  });

  test('an answer belongs to the person who answered, never to the session that asked', () => {
    const asked = { id: 'q1', session_id: 's1', question: 'Why?', status: 'answered', answer: 'Because', answered_by: null, created_at: at(1), answered_at: at(2) } as HitlRequest;
    const [, question, answer] = attributionEvents({ ...none, sessions: [session], questions: [asked] });
    expect(question).toMatchObject({ kind: 'hitl.asked', person: 'ada', session_id: 's1', subject_id: 'q1' });
    expect(answer).toMatchObject({ kind: 'hitl.answered', person: null, agent: null, session_id: null, subject_id: 'q1', text: 'Because' });
  });

  test('a tool call shows its tool and stored arguments; events at the same time keep a fixed order', () => {
    const call = { id: 'e1', session_id: 's1', tool: 'log_task', data: '{"arguments":{"description":"x"}}', occurred_at: at(0) } as AiLogEvent;
    const broken = { id: 'e2', session_id: null, tool: 'add_note', data: 'not json', occurred_at: at(0) } as AiLogEvent;
    const events = attributionEvents({ ...none, sessions: [session], toolCalls: [broken, call] });
    expect(events.map((e) => [e.kind, e.subject_id, e.text])).toEqual([
      ['session.started', 's1', 'session planner-bot (worker) started'],
      ['tool_call', 'e1', 'log_task {"description":"x"}'],
      ['tool_call', 'e2', 'add_note'],
      ['session.closed', 's1', 'session planner-bot ended (swept)'],
    ]);
  });
});
