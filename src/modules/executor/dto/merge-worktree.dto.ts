import { Uuid } from '../../../common/validation/uuid.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';

/** POST .../worktrees/{id}/merge: the session asking (default: the worktree's own session), which asks the approval question. */
export class MergeWorktreeDto {
  @OptionalField()
  @Uuid()
  session_id?: string;
}
