import { IsIn } from 'class-validator';
import { MemberRole } from '../../../common/auth/principal';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { CODEHOST_ACCESS, CodehostAccess, MEMBER_ROLES } from '../member-rights.util';

/** Only the fields given change; at least one is needed. */
export class UpdateMemberDto {
  @OptionalField()
  @IsIn(MEMBER_ROLES, { message: `role must be one of ${MEMBER_ROLES.join(', ')}` })
  role?: MemberRole;

  /** The most a member's code-host tools may do in this workspace, whatever their own connection allows. */
  @OptionalField()
  @IsIn(CODEHOST_ACCESS, { message: `codehost_access must be one of ${CODEHOST_ACCESS.join(', ')}` })
  codehost_access?: CodehostAccess;
}
