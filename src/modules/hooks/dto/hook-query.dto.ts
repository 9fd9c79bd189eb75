import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { NoControlChars } from '../../../common/validation/no-control-chars.decorator';

/** How a hook call names its project (and, for Stop, optionally the Baton session): query parameters of the hook URL. */
export class HookQueryDto {
  @IsOptional()
  @IsUUID('all', { message: 'project_id must be a UUID' })
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
  @IsUUID('all', { message: 'baton_session_id must be a UUID' })
  baton_session_id?: string;
}
