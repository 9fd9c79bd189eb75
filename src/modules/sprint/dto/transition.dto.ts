import { IsBoolean } from 'class-validator';
import { OptionalNotNull } from '../../../common/validation/optional-not-null.decorator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { LabelRules, TextRules } from './sprint-field.rules';

/**
 * Overriding what would refuse a finishing action: another live session holds the item, or (to
 * complete it) the item it depends on is not finished. Both fields together; the reason is kept
 * in the item's notes.
 */
export class ForceFinishDto {
  @OptionalNotNull()
  @IsBoolean({ message: 'force must be true or false' })
  force?: boolean;

  @OptionalNotNull()
  @TextRules('force_reason')
  force_reason?: string;
}

/** POST .../complete: evidence (notes or a task log entry) and, optionally, who completes it. */
export class CompleteSprintItemDto extends ForceFinishDto {
  @OptionalNotNull()
  @Uuid()
  task_id?: string;

  @OptionalNotNull()
  @TextRules('notes')
  notes?: string;

  /** Mark the work done pending verification (status provisional_complete) instead of done. */
  @OptionalNotNull()
  @IsBoolean()
  provisional?: boolean;

  /** The completing session: refused while another live session holds the item. */
  @OptionalNotNull()
  @Uuid()
  session_id?: string;
}

/** POST .../fail and .../skip. */
export class CloseSprintItemDto extends ForceFinishDto {
  @OptionalNotNull()
  @TextRules('reason')
  reason?: string;

  @OptionalNotNull()
  @Uuid()
  session_id?: string;
}

/** POST .../push: moves the item out of its sprint to another version. */
export class PushSprintItemDto extends CloseSprintItemDto {
  @LabelRules('to_version')
  to_version!: string;
}

/** POST .../verify: a session other than the claimer checks the work: a pass, or a failure with what is wrong. */
export class VerifySprintItemDto {
  @Uuid()
  session_id!: string;

  @IsBoolean({ message: 'passed must be true or false' })
  passed!: boolean;

  @OptionalNotNull()
  @TextRules('note')
  note?: string;
}
