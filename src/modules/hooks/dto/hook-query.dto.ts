import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, IsUUID, Matches, MaxLength } from 'class-validator';

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
  @Matches(/^[^\u0000-\u001f\u007f]*$/, { message: 'project must not contain control characters' })
  project?: string;

  /** Stop: the Baton session to checkpoint, when the hook input's assistant session is not enough. */
  @IsOptional()
  @IsUUID('all', { message: 'baton_session_id must be a UUID' })
  baton_session_id?: string;
}
