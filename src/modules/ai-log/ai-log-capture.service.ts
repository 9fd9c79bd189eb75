import { Injectable, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { redactSecrets } from '../../../libs/secrets';
import { HandoffCorrectedEvent, SessionStartedEvent, SprintItemVerifiedEvent } from '../../common/events/domain-event-map';
import { DomainEvents } from '../../common/events/domain-events';
import { ToolCall, ToolCallObservers } from '../../mcp/tool-call-observers';
import { AiLogRecorder } from './ai-log-recorder.service';
import { argumentsJson } from './argument-redaction.util';

const MAX_TEXT = 500;

/**
 * Turns what happens in Baton into AI-log events: every MCP tool call (seen by
 * the MCP server factory), every session start (`session.started`, emitted by
 * SessionsService.register, which start_session uses) and every handoff
 * correction (`handoff.corrected`). Only references and a closure are queued
 * here; arguments are redacted when the event is written. Each method returns
 * the recorder's promise: the tool call, and the request that emitted the
 * domain event, answer only once the event is stored (or kept for a retry).
 */
@Injectable()
export class AiLogCaptureService implements OnModuleInit {
  constructor(
    private readonly recorder: AiLogRecorder,
    private readonly observers: ToolCallObservers,
    private readonly domainEvents: DomainEvents,
  ) {}

  onModuleInit() {
    this.observers.register('ai-log', (call) => this.toolCall(call));
    this.domainEvents.on('session.started', (payload) => this.sessionStarted(payload));
    this.domainEvents.on('handoff.corrected', (payload) => this.handoffCorrected(payload));
    this.domainEvents.on('sprint_item.verified', (payload) => this.sprintItemVerified(payload));
  }

  toolCall(call: ToolCall): Promise<void> {
    const args = (call.args && typeof call.args === 'object' ? call.args : {}) as Record<string, unknown>;
    const durationMs = Math.round(call.durationMs * 1000) / 1000;
    return this.recorder.record({
      id: randomUUID(),
      kind: 'tool_call',
      occurredAt: call.startedAt,
      projectRef: typeof args.project_id === 'string' ? args.project_id : null,
      sessionRef: typeof args.session_id === 'string' ? args.session_id : null,
      tool: call.tool,
      outcome: call.outcome,
      errorCode: call.errorCode ?? null,
      durationMs,
      materialize: () => {
        const { json } = argumentsJson(call.args);
        const detail = call.errorDetail ? `,"error_detail":${JSON.stringify(clip(redactSecrets(call.errorDetail)))}` : '';
        const result = call.outcome === 'ok' ? 'ok' : `failed (${call.errorCode ?? 'error'})`;
        return { summary: `${call.tool} ${result} in ${Math.round(durationMs)} ms`, data: `{"arguments":${json}${detail}}` };
      },
    });
  }

  sessionStarted(payload: SessionStartedEvent): Promise<void> {
    const { session } = payload;
    const id = text(session.id);
    if (!id) return Promise.resolve();
    const createdAt = new Date(text(session.created_at) ?? Date.now());
    return this.recorder.record({
      id: randomUUID(),
      kind: 'session_start',
      occurredAt: Number.isNaN(createdAt.getTime()) ? new Date() : createdAt,
      projectRef: text(session.project_id),
      sessionRef: id,
      materialize: () => {
        const data = { name: clip(redactSecrets(text(session.name) ?? '')), human_id: clip(redactSecrets(text(session.human_id) ?? '')), kind: text(session.kind) };
        return { summary: `session ${data.name} started by ${data.human_id}`, data: JSON.stringify(data) };
      },
    });
  }

  handoffCorrected(payload: HandoffCorrectedEvent): Promise<void> {
    return this.recorder.record({
      id: randomUUID(),
      kind: 'handoff_correction',
      occurredAt: new Date(),
      projectRef: text(payload.project_id),
      sessionRef: text(payload.session_id),
      materialize: () => {
        const summary = clip(redactSecrets(text(payload.summary) ?? ''));
        const data = { correction_id: text(payload.correction_id), summary };
        return { summary: summary ? `handoff correction: ${summary}` : 'handoff correction', data: JSON.stringify(data) };
      },
    });
  }

  /** A verification of a sprint item (verify_sprint_item or its REST route): on the AI-log whichever door it came through. */
  sprintItemVerified(payload: SprintItemVerifiedEvent): Promise<void> {
    const at = new Date(payload.verified_at);
    return this.recorder.record({
      id: randomUUID(),
      kind: 'sprint_verification',
      occurredAt: Number.isNaN(at.getTime()) ? new Date() : at,
      projectRef: text(payload.project_id),
      sessionRef: text(payload.session_id),
      materialize: () => {
        const note = payload.note ? clip(redactSecrets(payload.note)) : null;
        const data = { item_id: payload.item_id, item_slug: payload.item_slug, passed: payload.passed, note };
        return { summary: `sprint item ${payload.item_slug} ${payload.passed ? 'verified' : 'failed verification'}${note ? `: ${note}` : ''}`, data: JSON.stringify(data) };
      },
    });
  }
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function clip(value: string): string {
  return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
}
