import { Injectable } from '@nestjs/common';
import { ExtensionRegistry } from '../common/extensions/extension-registry';

/**
 * Adds fields to a successful tool answer that is a JSON object, from the call's arguments (the
 * sessions module adds the notices owed to the session the call names). Answers undefined to add
 * nothing; an extra is given only answers it can carry, so what it hands over is never lost.
 */
export type ToolAnswerExtra = (args: Record<string, unknown>) => Promise<Record<string, unknown> | undefined>;

@Injectable()
export class ToolAnswerExtras extends ExtensionRegistry<ToolAnswerExtra> {
  constructor() {
    super('tool answer extra');
  }

  /** The fields every extra adds to an answer of a call with `args`; an answer's own fields win a clash. */
  async collect(args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const added: Record<string, unknown> = {};
    for (const [, extra] of this) Object.assign(added, await extra(args));
    return added;
  }
}
