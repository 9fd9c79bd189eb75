import { Injectable, Logger } from '@nestjs/common';
import { ExtensionRegistry } from '../common/extensions/extension-registry';

/** What happened in one MCP tool call, as the server factory saw it. */
export interface ToolCall {
  tool: string;
  /** The arguments exactly as the client sent them (unvalidated, unredacted). */
  args: unknown;
  startedAt: Date;
  durationMs: number;
  outcome: 'ok' | 'error';
  /** The error's `code` (for example FILE_LOCKED, INVALID_INPUT, or INTERNAL for an unexpected error). */
  errorCode?: string;
  errorDetail?: string;
}

/**
 * Sees every tool call after it finished, before its answer is sent. May
 * return a promise: the answer waits for it (the AI-log's, so that an answered
 * call is already recorded). Its rejection is logged and never fails the call.
 */
export type ToolCallObserver = (call: ToolCall) => void | Promise<void>;

/**
 * Modules that record tool calls (the AI-log) register here; the MCP server
 * factory notifies every observer. An observer's failure is logged and never
 * reaches the call it observes.
 */
@Injectable()
export class ToolCallObservers extends ExtensionRegistry<ToolCallObserver> {
  private readonly logger = new Logger('mcp');

  constructor() {
    super('tool call observer');
  }

  /**
   * Tells every observer; resolves when every promise an observer returned has settled. Never
   * rejects. Unlike the hooks run in a transaction, observers are not awaited one by one: they
   * share nothing, and the call's answer should wait for the slowest alone. With no promise to
   * wait for it answers synchronously, so that a call no observer waits on costs no extra turn.
   */
  notify(call: ToolCall): Promise<void> | void {
    let waits: Promise<void>[] | undefined;
    for (const [name, observer] of this) {
      try {
        const pending = observer(call);
        if (pending) (waits ??= []).push(pending.catch((error: unknown) => this.failed(name, error)));
      } catch (error) {
        this.failed(name, error);
      }
    }
    return waits ? Promise.all(waits).then(() => undefined) : undefined;
  }

  private failed(name: string, error: unknown) {
    this.logger.error({ msg: 'tool call observer failed', observer: name, error: (error as Error)?.message });
  }
}
