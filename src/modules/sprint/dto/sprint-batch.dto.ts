import { IntersectionType } from '@nestjs/mapped-types';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsObject } from 'class-validator';
import { BATCH_MAX_ITEMS } from '../sprint.constants';
import { ItemRefRules } from './sprint-field.rules';
import { CloseSprintItemDto, CompleteSprintItemDto, PushSprintItemDto } from './transition.dto';
import { UpdateSprintItemDto } from './update-sprint-item.dto';

export const BATCH_OPS = ['create', 'update', 'complete', 'fail', 'skip', 'push', 'delete'] as const;
export type BatchOp = (typeof BATCH_OPS)[number];

/**
 * POST /projects/{id}/sprint-batch: one kind of write applied to many items
 * in one transaction: all of them or none.
 */
export class SprintBatchDto {
  @IsIn(BATCH_OPS)
  op!: BatchOp;

  /** Each item is validated as the single-item route's body (plus item_id for writes to existing items). */
  // class-validator reports the rule declared last first: the array checks come last.
  @IsObject({ each: true, message: 'each value in items must be a JSON object' })
  @ArrayMaxSize(BATCH_MAX_ITEMS)
  @ArrayMinSize(1)
  @IsArray()
  items!: Record<string, unknown>[];
}

export class BatchItemRefDto {
  @ItemRefRules('item_id')
  item_id!: string;
}

export class BatchUpdateItemDto extends IntersectionType(BatchItemRefDto, UpdateSprintItemDto) {}
export class BatchCompleteItemDto extends IntersectionType(BatchItemRefDto, CompleteSprintItemDto) {}
export class BatchCloseItemDto extends IntersectionType(BatchItemRefDto, CloseSprintItemDto) {}
export class BatchPushItemDto extends IntersectionType(BatchItemRefDto, PushSprintItemDto) {}
