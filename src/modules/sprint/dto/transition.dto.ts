import { IsBoolean, IsOptional, IsUUID } from 'class-validator';
import { LabelRules, TextRules } from './sprint-field.rules';

/** POST .../complete: evidence (notes or a task log entry) and, optionally, who completes it. */
export class CompleteSprintItemDto {
  @IsOptional()
  @IsUUID('all', { message: 'task_id must be a UUID' })
  task_id?: string;

  @IsOptional()
  @TextRules('notes')
  notes?: string;

  /** Mark the work done pending verification (status provisional_complete) instead of done. */
  @IsOptional()
  @IsBoolean()
  provisional?: boolean;

  /** The completing session: refused while another live session holds the item. */
  @IsOptional()
  @IsUUID('all', { message: 'session_id must be a UUID' })
  session_id?: string;
}

/** POST .../fail and .../skip. */
export class CloseSprintItemDto {
  @IsOptional()
  @TextRules('reason')
  reason?: string;

  @IsOptional()
  @IsUUID('all', { message: 'session_id must be a UUID' })
  session_id?: string;
}

/** POST .../push: moves the item out of its sprint to another version. */
export class PushSprintItemDto extends CloseSprintItemDto {
  @LabelRules('to_version')
  to_version!: string;
}
