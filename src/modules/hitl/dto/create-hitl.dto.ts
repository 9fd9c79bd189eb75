import { IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PlainText } from '../../../common/validation/plain-text.decorator';
import { ShortName } from '../../../common/validation/short-name.decorator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { HITL_URGENCIES, HitlUrgency } from '../hitl-request.entity';

/** POST /projects/{id}/hitl. */
export class CreateHitlDto {
  @PlainText('question', 10_000)
  question!: string;

  @IsOptional()
  @MaxLength(50_000)
  @IsString()
  context?: string | null;

  /** normal (default), high or blocking. */
  @IsOptional()
  @IsIn(HITL_URGENCIES, { message: `urgency must be one of ${HITL_URGENCIES.join(', ')}` })
  urgency?: HitlUrgency;

  /** The asking session, a session of this project. */
  @Uuid()
  session_id!: string;

  /** Who should answer; default the human of the asking session. */
  @IsOptional()
  @ShortName()
  assigned_to?: string;

  /** Ask a person even when the project auto-answers. */
  @IsOptional()
  @IsBoolean()
  require_human?: boolean;
}
