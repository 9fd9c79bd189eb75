import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error';
import { InputClass, validateInput } from '../../common/validation/validate-input';
import { CreateSprintItemDto } from './dto/create-sprint-item.dto';
import { BatchCloseItemDto, BatchCompleteItemDto, BatchItemRefDto, BatchOp, BatchPushItemDto, BatchUpdateItemDto, SprintBatchDto } from './dto/sprint-batch.dto';
import { SprintBatchError } from './sprint-batch.errors';
import { SprintDb } from './sprint-db.service';
import { SprintIdentifiers } from './sprint-identifiers.service';
import { SprintItemsService } from './sprint-items.service';
import { SprintItem } from './sprint-item.entity';
import { SprintItemView, toSprintItemView } from './sprint-item.view';
import { requireItem } from './sprint-store.util';
import { SprintTransitions } from './sprint-transitions.service';
import { SprintTx } from './sprint-tx';

export interface SprintBatchResult {
  op: BatchOp;
  count: number;
  /** The items as written (create, update, complete, fail, skip, push). */
  items?: SprintItemView[];
  /** The ids removed (delete). */
  deleted?: string[];
}

const ITEM_CLASS: Record<BatchOp, InputClass<object>> = {
  create: CreateSprintItemDto,
  update: BatchUpdateItemDto,
  complete: BatchCompleteItemDto,
  fail: BatchCloseItemDto,
  skip: BatchCloseItemDto,
  push: BatchPushItemDto,
  delete: BatchItemRefDto,
};

/**
 * POST /projects/{id}/sprint-batch: one kind of write over many items, in one
 * transaction. Every item is validated first; the first refusal (with its
 * index) cancels the whole batch, so a batch leaves all of its writes or none,
 * even when the process dies half-way.
 */
@Injectable()
export class SprintBatchService {
  constructor(
    private readonly sprint: SprintDb,
    private readonly items: SprintItemsService,
    private readonly transitions: SprintTransitions,
    private readonly identifiers: SprintIdentifiers,
  ) {}

  async apply(projectId: string, batch: SprintBatchDto): Promise<SprintBatchResult> {
    const inputs: Record<string, unknown>[] = [];
    for (const [index, raw] of batch.items.entries()) {
      try {
        inputs.push((await validateInput(ITEM_CLASS[batch.op], raw, `items[${index}]`)) as Record<string, unknown>);
      } catch (error) {
        throw wrap(index, error);
      }
    }
    return this.sprint.run(projectId, (tx) => this.applyIn(tx, batch.op, inputs), { retryOnUniqueViolation: true });
  }

  private async applyIn(tx: SprintTx, op: BatchOp, inputs: Record<string, unknown>[]): Promise<SprintBatchResult> {
    if (op === 'create') {
      const creates = inputs as unknown as CreateSprintItemDto[];
      const duplicates = creates.every((c) => c.force) ? undefined : await this.items.duplicateIndex(tx);
      const identifiers = await this.identifiers.pool(tx);
      const created: SprintItem[] = [];
      for (const [index, input] of creates.entries()) {
        created.push(await guarded(index, () => this.items.createIn(tx, input, { duplicates, identifiers })));
      }
      return { op, count: created.length, items: created.map(toSprintItemView) };
    }
    if (op === 'delete') {
      const deleted: string[] = [];
      for (const [index, input] of inputs.entries()) {
        await guarded(index, async () => {
          const item = await requireItem(tx.m, tx.projectId, input.item_id as string);
          await this.items.removeIn(tx, item);
          deleted.push(item.id);
        });
      }
      return { op, count: deleted.length, deleted };
    }
    const written: SprintItem[] = [];
    for (const [index, input] of inputs.entries()) {
      written.push(
        await guarded(index, async () => {
          const { item_id, ...body } = input;
          const item = await requireItem(tx.m, tx.projectId, item_id as string);
          if (op === 'update') return this.items.updateIn(tx, item, body);
          return this.transitions.finishIn(tx, item, op, body);
        }),
      );
    }
    return { op, count: written.length, items: written.map(toSprintItemView) };
  }
}

async function guarded<T>(index: number, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw wrap(index, error);
  }
}

function wrap(index: number, error: unknown): unknown {
  return error instanceof DomainError ? new SprintBatchError(index, error) : error;
}
