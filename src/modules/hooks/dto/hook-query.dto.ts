import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { NoControlChars } from '../../../common/validation/no-control-chars.decorator';
import { Uuid } from '../../../common/validation/uuid.decorator';

/** How a hook call names its project (and, for Stop, optionally the Baton session): query parameters of the hook URL. */
export class HookQueryDto {
  @IsOptional()
  @Uuid()
  project_id?: string;

  /** The project's name, compared without regard to case (exact, not a substring). Empty: not given (a template's unset variable). */
  @Transform(({ value }) => (value === '' ? undefined : value))
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  @NoControlChars('project')
  project?: string;

  /** Stop: the Baton session to checkpoint, when the hook input's assistant session is not enough. */
  @IsOptional()
  @Uuid()
  baton_session_id?: string;
}
