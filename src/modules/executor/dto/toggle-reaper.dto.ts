import { IsBoolean } from 'class-validator';
import { OptionalNotNull } from '../../../common/validation/optional-not-null.decorator';

/** POST .../orphan_reaper/toggle: `enabled` sets it; left out, the reaper is flipped; null is refused (a toggle must not flip by accident). */
export class ToggleReaperDto {
  @OptionalNotNull()
  @IsBoolean({ message: 'enabled must be true or false' })
  enabled?: boolean;
}
