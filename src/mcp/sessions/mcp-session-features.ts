import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { JSONRPCMessage, LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import { currentTenant, runWithTenant } from '../../../libs/tenancy';
import { RealtimeEventName } from '../../common/events/realtime-events';
import type { HitlView } from '../../modules/hitl/hitl-request.view';
import { PushNotice, PushService } from '../../modules/push/push.service';
import { mcpError, McpResources, ResourceKind } from '../resources/mcp-resources.service';
import { mcpSdk } from '../sdk';
import { ToolCall, ToolCallObservers } from '../tool-call-observers';
import { McpElicitations } from './mcp-elicitations.service';
import { currentMcpSession, logLevelPasses } from './mcp-session-context';
import { McpSessionStore } from './mcp-session-store';

/** Which resources of its project a dashboard event changes (the context block reads most of them). */
const CHANGES: Partial<Record<RealtimeEventName, ResourceKind[]>> = {
  goal_changed: ['goal', 'context'],
  sprint_item_changed: ['sprint', 'context'],
  hitl_created: ['hitl', 'context'],
  hitl_answered: ['hitl', 'context'],
  hitl_dismissed: ['hitl', 'context'],
  message_sent: ['inbox'],
  handoff_generated: ['handoff', 'context'],
  handoff_accepted: ['handoff', 'context'],
  task_logged: ['goal', 'context'],
  task_changed: ['goal', 'context'],
  session_started: ['context'],
  session_closed: ['context'],
  file_lock_claimed: ['context'],
  file_lock_released: ['context'],
  knowledge_changed: ['context'],
  project_settings_changed: ['context'],
};

/**
 * What a session adds to the MCP server: resources (templates, list, read,
 * subscribe), `logging/setLevel` and the log messages of its tool calls, and
 * the wiring that turns a change anywhere into `notifications/resources/updated`
 * and a HITL question into an elicitation. Changes are caught where they are
 * made (PushService.publish on the instance that made them), so each is queued
 * once, for the sessions that subscribed, whichever instance holds their stream.
 */
@Injectable()
export class McpSessionFeatures implements OnModuleInit {
  private readonly logger = new Logger('mcp');

  constructor(
    private readonly resources: McpResources,
    private readonly store: McpSessionStore,
    private readonly elicitations: McpElicitations,
    private readonly push: PushService,
    private readonly observers: ToolCallObservers,
  ) {}

  onModuleInit() {
    this.push.onPublish((tenantId, notice) => this.published(tenantId, notice));
    this.observers.register('mcp session log', (call) => this.logCall(call));
  }

  /** Declares resources and logging on `server` and answers them. */
  install(server: Server): void {
    const sdk = mcpSdk();
    server.registerCapabilities({ resources: { subscribe: true, listChanged: false }, logging: {} });
    server.setRequestHandler(sdk.ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: this.resources.templates() }));
    server.setRequestHandler(sdk.ListResourcesRequestSchema, async () => ({ resources: await this.resources.list() }));
    server.setRequestHandler(sdk.ReadResourceRequestSchema, (request) => this.resources.read(request.params.uri));
    server.setRequestHandler(sdk.SubscribeRequestSchema, async (request) => {
      const session = this.requireSession('resources/subscribe');
      // Read once: a resource that does not exist (another tenant's project) is refused as reading it would be.
      await this.resources.read(request.params.uri);
      const { projectId, kind } = this.resources.parse(request.params.uri);
      await this.store.subscribe(session.id, request.params.uri, projectId, kind);
      return {};
    });
    server.setRequestHandler(sdk.UnsubscribeRequestSchema, async (request) => {
      const session = this.requireSession('resources/unsubscribe');
      await this.store.unsubscribe(session.id, request.params.uri);
      return {};
    });
    server.setRequestHandler(sdk.SetLevelRequestSchema, async (request) => {
      // A stateless request has no stream to send messages on, so nothing to filter: the answer is the same.
      const session = currentMcpSession();
      if (session) await this.store.setLogLevel(session.id, request.params.level);
      return {};
    });
  }

  private requireSession(method: string) {
    const session = currentMcpSession();
    if (!session) {
      throw mcpError(mcpSdk().ErrorCode.InvalidRequest, `${method} needs an MCP session: initialize over POST /mcp and send its Mcp-Session-Id header`);
    }
    return session;
  }

  /** A change made on this instance: queued for the sessions it concerns, never delaying or failing the change. */
  private published(tenantId: string, notice: PushNotice): void {
    const event = notice.event;
    if (!event) return;
    const kinds = CHANGES[event.event];
    if (!kinds) return;
    const session = currentMcpSession();
    const tenant = currentTenant();
    // Without the request's deadline: the change is answered already, its notifications follow it.
    void runWithTenant(tenant, async () => {
      try {
        if (event.event === 'hitl_created' && session && McpElicitations.supports(session)) {
          const request = event.data.request as HitlView;
          if (request.status === 'pending') await this.elicitations.ask(session, request);
        }
        if (event.event === 'hitl_answered' || event.event === 'hitl_dismissed') {
          const request = event.data.request as HitlView;
          await this.elicitations.withdraw(request.id, event.event === 'hitl_answered' ? `answered by ${request.answered_by ?? 'someone'}` : 'dismissed');
        }
        const projectId = projectOf(event.data);
        if (!projectId) return;
        const subscriptions = await this.store.subscribersOf(projectId, kinds);
        await this.store.enqueue(
          subscriptions.map((s) => ({
            sessionId: s.session_id,
            message: { jsonrpc: '2.0' as const, method: 'notifications/resources/updated', params: { uri: s.uri } },
          })),
        );
      } catch (error) {
        this.logger.warn({ msg: 'MCP session notifications of a change were not queued', tenant_id: tenantId, event: event.event, error: (error as Error).message });
      }
    });
  }

  /** A tool call of a session: a refusal is a warning (a lock held by another session, say), a failure an error, a success debug. */
  private logCall(call: ToolCall): Promise<void> | void {
    const session = currentMcpSession();
    if (!session) return;
    const level: LoggingLevel = call.outcome === 'ok' ? 'debug' : call.errorCode === 'INTERNAL' ? 'error' : 'warning';
    if (!logLevelPasses(level, session.logLevel)) return;
    const data = call.outcome === 'ok' ? { tool: call.tool, outcome: 'ok' } : { tool: call.tool, outcome: 'error', code: call.errorCode, detail: call.errorDetail };
    const message: JSONRPCMessage = { jsonrpc: '2.0', method: 'notifications/message', params: { level, logger: 'baton', data } };
    return this.store.enqueue([{ sessionId: session.id, message }]);
  }
}

/** The project a dashboard event is about: its `project_id`, or that of the record it carries. */
function projectOf(data: Record<string, unknown>): string | undefined {
  if (typeof data.project_id === 'string') return data.project_id;
  for (const value of Object.values(data)) {
    if (value && typeof value === 'object' && typeof (value as { project_id?: unknown }).project_id === 'string') return (value as { project_id: string }).project_id;
  }
  return undefined;
}
