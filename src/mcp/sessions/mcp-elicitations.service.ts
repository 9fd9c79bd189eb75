import { Injectable, Logger } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { toErrorResponse } from '../../common/errors/error-response';
import type { HitlView } from '../../modules/hitl/hitl-request.view';
import { HitlService } from '../../modules/hitl/hitl.service';
import { McpSessionState } from './mcp-session-context';
import { McpSessionStore } from './mcp-session-store';

/** The request id under which a HITL question is asked in a client. */
const requestIdOf = (hitlId: string) => `hitl-${hitlId}`;

/**
 * HITL questions asked in the asking session's own client (MCP elicitation),
 * when the client declared the capability: besides the dashboard and the
 * notifications, not instead. The first answer wins wherever it is given;
 * one given in the client is stored as a dashboard answer would be, with
 * `answered_by` naming the client. A decline or a cancel leaves the question
 * pending for the others; an answer given elsewhere withdraws the question
 * from the client (`notifications/cancelled`).
 */
@Injectable()
export class McpElicitations {
  private readonly logger = new Logger('mcp');
  private hitlService?: HitlService;

  constructor(
    private readonly store: McpSessionStore,
    private readonly modules: ModuleRef,
  ) {}

  /** Whether the session's client takes form elicitations (an empty `elicitation` object means form, as in 2025-06-18). */
  static supports(session: McpSessionState): boolean {
    const elicitation = session.capabilities.elicitation as { form?: unknown; url?: unknown } | undefined;
    if (!elicitation || typeof elicitation !== 'object') return false;
    return elicitation.form !== undefined || elicitation.url === undefined;
  }

  /** Asks a pending question of the session that created it in that session's client. */
  async ask(session: McpSessionState, request: HitlView): Promise<void> {
    const requestId = requestIdOf(request.id);
    await this.store.addElicitation(session.id, requestId, request.id);
    const lines = [`[${request.urgency}] ${request.question}`];
    if (request.context) lines.push('', request.context);
    const message: JSONRPCMessage = {
      jsonrpc: '2.0',
      id: requestId,
      method: 'elicitation/create',
      params: {
        mode: 'form',
        message: lines.join('\n'),
        requestedSchema: {
          type: 'object',
          properties: { answer: { type: 'string', title: 'Answer', description: 'Your answer to the question' } },
          required: ['answer'],
        },
        _meta: { 'baton/hitl_id': request.id, 'baton/urgency': request.urgency, 'baton/project_id': request.project_id },
      },
    };
    await this.store.enqueue([{ sessionId: session.id, message }]);
  }

  /** The client's answers: an accepted form answers the question (unless it was answered meanwhile); anything else leaves it pending. */
  async answered(session: McpSessionState, messages: JSONRPCMessage[]): Promise<void> {
    for (const message of messages) {
      if (!('id' in message)) continue;
      const row = await this.store.takeElicitation(session.id, String(message.id));
      if (!row || !('result' in message)) continue;
      const { action, content } = message.result as { action?: unknown; content?: { answer?: unknown } };
      const answer = content?.answer;
      if (action !== 'accept' || typeof answer !== 'string' || answer.trim() === '') continue;
      try {
        await this.hitl().update(row.hitl_id, { action: 'answer', answer, answered_by: `mcp-client:${session.clientName}` });
      } catch (error) {
        // Answered or dismissed elsewhere first: the first answer won.
        const { body, unexpected } = toErrorResponse(error);
        if (unexpected) throw error;
        this.logger.log({ msg: 'an answer given in an MCP client came second', hitl_id: row.hitl_id, code: body.code });
      }
    }
  }

  /** The question was answered or dismissed: withdraws it from every client it is still open in. */
  async withdraw(hitlId: string, reason: string): Promise<void> {
    const rows = await this.store.takeElicitationsOf(hitlId);
    await this.store.enqueue(
      rows.map((row) => ({
        sessionId: row.session_id,
        message: { jsonrpc: '2.0' as const, method: 'notifications/cancelled', params: { requestId: row.request_id, reason } },
      })),
    );
  }

  private hitl(): HitlService {
    return (this.hitlService ??= this.modules.get(HitlService, { strict: false }));
  }
}
