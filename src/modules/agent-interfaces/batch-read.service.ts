import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { toErrorResponse } from '../../common/errors/error-response';
import { RequestError } from '../../common/errors/request-error';
import { validateInput } from '../../common/validation/validate-input';
import { ToolRegistry } from '../../mcp/tool-registry.service';
import { ToolText } from '../../mcp/tool-text';
import { MessagesService } from '../messages/messages.service';
import { BATCH_READ_TOOLS, BATCH_WAIT_ARGS, BatchReadName } from './batch-read.constants';
import { BatchMessagesReadDto } from './dto/batch-messages-read.dto';
import { BatchReadDto } from './dto/batch-read.dto';

export type BatchReadResult =
  { read: BatchReadName; key?: string; ok: true; result: unknown } | { read: BatchReadName; key?: string; ok: false; detail: string; code?: string; status: number };

/**
 * batch_read: several reads in one tool call. Each read runs as if called
 * alone (its own tool's validation, the caller's tenant, the same not-found
 * for an id out of scope), one after another; a refused read is an error
 * entry and the others are still answered.
 */
@Injectable()
export class BatchReadService implements OnApplicationBootstrap {
  private readonly logger = new Logger('batch-read');

  constructor(
    private readonly tools: ToolRegistry,
    private readonly messages: MessagesService,
  ) {}

  /** Every read must be served by a registered read-only tool: a batch never changes anything. */
  onApplicationBootstrap() {
    for (const [read, name] of Object.entries(BATCH_READ_TOOLS)) {
      const tool = this.tools.get(name);
      if (!tool || !tool.annotations.readOnlyHint) throw new Error(`batch_read's ${read} read needs the read-only tool ${name}`);
    }
  }

  async run(input: BatchReadDto): Promise<{ results: BatchReadResult[]; answered: number; refused: number }> {
    const results: BatchReadResult[] = [];
    for (const item of input.reads) {
      const key = item.key !== undefined ? { key: item.key } : {};
      try {
        results.push({ read: item.read, ...key, ok: true, result: await this.one(item.read, item.args ?? {}) });
      } catch (error) {
        const { status, body, unexpected } = toErrorResponse(error);
        if (unexpected) this.logger.error({ msg: 'batch read failed', read: item.read, error_id: body.error_id, stack: unexpected.stack });
        results.push({ read: item.read, ...key, ok: false, detail: body.detail, ...(body.code ? { code: body.code } : {}), status });
      }
    }
    const answered = results.filter((r) => r.ok).length;
    return { results, answered, refused: results.length - answered };
  }

  private async one(read: BatchReadName, args: Record<string, unknown>): Promise<unknown> {
    const waiting = BATCH_WAIT_ARGS.find((a) => a in args);
    if (waiting) throw RequestError.invalidInput(`${waiting} is not allowed in batch_read: a batch answers at once (call the read's own tool to wait)`);
    if (read === 'messages') {
      const { project_id, ...query } = await validateInput(BatchMessagesReadDto, args, 'args');
      return this.messages.list(project_id, query);
    }
    const tool = this.tools.get(BATCH_READ_TOOLS[read]);
    if (!tool) throw new Error(`no tool for the ${read} read`);
    const result = await tool.invoke(args);
    return result instanceof ToolText ? { text: result.text } : result;
  }
}
