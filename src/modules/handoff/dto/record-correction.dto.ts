import { IsOptional } from 'class-validator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { CORRECTION_CONTENT_MAX, CORRECTION_SUMMARY_MAX } from '../handoff.constants';
import { FreeTextRules, OneLineRules } from './free-text.rules';

export class RecordCorrectionDto {
  /** The blocked executor session the correction is for. */
  @IsOptional()
  @Uuid()
  session_id?: string;

  /** One line: what was wrong. */
  @OneLineRules('summary', CORRECTION_SUMMARY_MAX)
  summary!: string;

  /** The corrective handoff itself: what to do instead. */
  @FreeTextRules('content', CORRECTION_CONTENT_MAX)
  content!: string;
}
