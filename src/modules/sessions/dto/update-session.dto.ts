import { IsObject, IsOptional } from 'class-validator';
import { SessionNameRules } from './session-name.rules';

/** PATCH /sessions/{id}: lightweight dashboard state. Only the fields given change. */
export class UpdateSessionDto {
  @IsOptional()
  @SessionNameRules()
  name?: string;

  /** Replaces the stored state object (at most 16 KiB of JSON). */
  @IsOptional()
  @IsObject()
  state?: Record<string, unknown>;
}
