import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Title } from '../../../common/validation/title.decorator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { NAME_MAX, PATH_MAX } from '../executor.constants';

/** POST .../worktrees: a worktree an executor made (its path on the machine, its branch). */
export class RegisterWorktreeDto {
  @Title('path', PATH_MAX)
  path!: string;

  @OptionalField()
  @Title('branch', NAME_MAX)
  branch?: string;

  @OptionalField()
  @Uuid()
  machine_id?: string;

  @OptionalField()
  @Uuid()
  session_id?: string;
}
