import { Transform } from 'class-transformer';
import { IsEmail, IsOptional, IsString, MaxLength } from 'class-validator';

/** POST /auth/magic, as JSON or as the sign-in page's form. */
export class RequestMagicLinkDto {
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @MaxLength(254)
  @IsString()
  email!: string;

  /** A same-origin path to return to after signing in; anything else is ignored. */
  @IsOptional()
  @MaxLength(2000)
  @IsString()
  next?: string | null;
}
