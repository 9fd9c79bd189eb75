import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

/** GET /auth/magic/verify?token=... */
export class VerifyMagicLinkQueryDto {
  @MaxLength(200)
  @IsNotEmpty({ message: 'token must not be empty' })
  @IsString()
  token!: string;
}
