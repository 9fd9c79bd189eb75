import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { HANDOFF_MODES, HANDOFF_SUMMARY_MAX, HandoffMode } from '../handoff.constants';
import { FreeTextRules } from './free-text.rules';

export class GenerateHandoffDto {
  /** The session handing off: its scratch-pad notes go into the handoff. */
  @IsOptional()
  @Uuid()
  session_id?: string;

  /** Default: delta when the project already has a handoff, goal otherwise (never full). */
  @IsOptional()
  @IsIn(HANDOFF_MODES, { message: `mode must be one of: ${HANDOFF_MODES.join(', ')}` })
  mode?: HandoffMode;

  /** What the session did and what comes next, in its own words; put at the top of the handoff. */
  @IsOptional()
  @FreeTextRules('summary', HANDOFF_SUMMARY_MAX)
  summary?: string;

  /**
   * Pass the baton: the session's in-progress sprint items and tasks and its file locks move to
   * whoever accepts the handoff (held for it meanwhile), so this session may end at once. Needs session_id.
   */
  @IsOptional()
  @IsBoolean({ message: 'carry must be true or false' })
  carry?: boolean;
}
