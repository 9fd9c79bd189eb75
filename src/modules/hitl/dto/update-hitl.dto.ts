import { IsIn, IsOptional } from 'class-validator';
import { PlainText } from '../../../common/validation/plain-text.decorator';
import { ShortName } from '../../../common/validation/short-name.decorator';

/** PATCH /hitl/{id}: answer (default) or dismiss a pending request. */
export class UpdateHitlDto {
  @IsOptional()
  @IsIn(['answer', 'dismiss'], { message: 'action must be answer or dismiss' })
  action?: 'answer' | 'dismiss';

  /** Required to answer. */
  @IsOptional()
  @PlainText('answer', 50_000)
  answer?: string;

  /** Who answered; default SERVICE_HUMAN_ID (self-hosted) or "human". */
  @IsOptional()
  @ShortName()
  answered_by?: string;
}
