import { IsObject, IsOptional } from 'class-validator';
import { OptionalNotNull } from '../../../common/validation/optional-not-null.decorator';
import { SessionNameRules } from './session-name.rules';

/** PATCH /sessions/{id}: lightweight dashboard state. Only the fields given change. */
export class UpdateSessionDto {
  /** May be left out; null is refused (a session always has a name). */
  @OptionalNotNull()
  @SessionNameRules()
  name?: string;

  /** Replaces the stored state object (at most 16 KiB of JSON). */
  @IsOptional()
  @IsObject()
  state?: Record<string, unknown>;
}
