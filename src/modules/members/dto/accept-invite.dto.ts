import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class AcceptInviteDto {
  /** The token of the invitation e-mail's link. */
  @IsString({ message: 'token must be the token of an invitation link' })
  @IsNotEmpty({ message: 'token must be the token of an invitation link' })
  @MaxLength(200)
  token!: string;
}
