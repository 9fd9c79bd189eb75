import { IsOptional, IsUUID } from 'class-validator';
import { CORRECTION_CONTENT_MAX, CORRECTION_SUMMARY_MAX } from '../handoff.constants';
import { FreeTextRules, OneLineRules } from './free-text.rules';

export class RecordCorrectionDto {
  /** The blocked executor session the correction is for. */
  @IsOptional()
  @IsUUID('all', { message: 'session_id must be a UUID' })
  session_id?: string;

  /** One line: what was wrong. */
  @OneLineRules('summary', CORRECTION_SUMMARY_MAX)
  summary!: string;

  /** The corrective handoff itself: what to do instead. */
  @FreeTextRules('content', CORRECTION_CONTENT_MAX)
  content!: string;
}
