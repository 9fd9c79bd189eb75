import { IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { NoControlChars } from '../../../common/validation/no-control-chars.decorator';

/**
 * The part of an assistant's hook input (the JSON a Claude Code command hook
 * receives on stdin) that Baton reads. The assistant defines that JSON and
 * adds fields over time, so only these are read and validated; the rest is
 * ignored rather than refused.
 */
export class HookInputDto {
  /** The assistant's own session id (not a Baton session id). */
  @IsOptional()
  @IsString({ message: 'session_id must be a string' })
  @MinLength(1)
  @MaxLength(200)
  @Matches(/^[A-Za-z0-9._:-]+$/, { message: 'session_id must be letters, digits, dots, colons, underscores or dashes' })
  session_id?: string;

  @IsOptional()
  @IsString({ message: 'hook_event_name must be a string' })
  @MaxLength(50)
  hook_event_name?: string;

  /** SessionStart: startup, resume, clear or compact. */
  @IsOptional()
  @IsString({ message: 'source must be a string' })
  @Matches(/^[a-z_]{1,50}$/, { message: 'source must be a lowercase word' })
  source?: string;

  /** The assistant's working directory: its last segment names the project when the hook URL does not. */
  @IsOptional()
  @IsString({ message: 'cwd must be a string' })
  @MaxLength(4096)
  @NoControlChars('cwd')
  cwd?: string;

  /** SessionEnd: why the session ended. */
  @IsOptional()
  @IsString({ message: 'reason must be a string' })
  @MaxLength(100)
  reason?: string;
}
