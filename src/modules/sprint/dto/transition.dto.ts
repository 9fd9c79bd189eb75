import { IsBoolean, ValidateIf } from 'class-validator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { LabelRules, TextRules } from './sprint-field.rules';

/** Optional, but null is not a value. */
const given = (_: object, value: unknown) => value !== undefined;

/** POST .../complete: evidence (notes or a task log entry) and, optionally, who completes it. */
export class CompleteSprintItemDto {
  @ValidateIf(given)
  @Uuid()
  task_id?: string;

  @ValidateIf(given)
  @TextRules('notes')
  notes?: string;

  /** Mark the work done pending verification (status provisional_complete) instead of done. */
  @ValidateIf(given)
  @IsBoolean()
  provisional?: boolean;

  /** The completing session: refused while another live session holds the item. */
  @ValidateIf(given)
  @Uuid()
  session_id?: string;
}

/** POST .../fail and .../skip. */
export class CloseSprintItemDto {
  @ValidateIf(given)
  @TextRules('reason')
  reason?: string;

  @ValidateIf(given)
  @Uuid()
  session_id?: string;
}

/** POST .../push: moves the item out of its sprint to another version. */
export class PushSprintItemDto extends CloseSprintItemDto {
  @LabelRules('to_version')
  to_version!: string;
}
