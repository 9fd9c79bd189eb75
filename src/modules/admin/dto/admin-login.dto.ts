import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

/** POST /admin/login, as JSON or as the login page's form. */
export class AdminLoginDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(1000)
  password!: string;

  /** Where a browser goes after signing in: a path on this site, else /admin/health. */
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  next?: string;
}
