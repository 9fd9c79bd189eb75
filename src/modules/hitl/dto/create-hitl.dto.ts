import { IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { HITL_URGENCIES, HitlUrgency } from '../hitl-request.entity';

/** POST /projects/{id}/hitl. */
export class CreateHitlDto {
  @IsNotEmpty({ message: 'question must not be empty' })
  @MaxLength(10_000)
  @IsString()
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
  @IsNotEmpty()
  @MaxLength(200)
  @IsString()
  assigned_to?: string;

  /** Ask a person even when the project auto-answers. */
  @IsOptional()
  @IsBoolean()
  require_human?: boolean;
}
