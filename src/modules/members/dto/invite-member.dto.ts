import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsString, MaxLength } from 'class-validator';
import { MemberRole } from '../../../common/auth/principal';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { MEMBER_ROLES } from '../member-rights.util';

export class InviteMemberDto {
  /** Compared and stored in lower case, as accounts are. */
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsString({ message: 'email must be an e-mail address' })
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be an e-mail address' })
  email!: string;

  /** Default `member`. */
  @OptionalField()
  @IsIn(MEMBER_ROLES, { message: `role must be one of ${MEMBER_ROLES.join(', ')}` })
  role?: MemberRole;
}
