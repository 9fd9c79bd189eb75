import { Uuid } from '../../../common/validation/uuid.decorator';

export class SwitchWorkspaceDto {
  /** The workspace to act in from now on; the person must be an active member of it. */
  @Uuid()
  workspace_id!: string;
}

export class SessionIdDto {
  @Uuid()
  session_id!: string;
}
