import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';

/** The `{account_login}` of DELETE /codehost/connections/{account_login}: a code-host account name. */
export class AccountLoginDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  @Matches(/^[A-Za-z0-9._-]+$/, { message: 'account_login must be a code-host account name (letters, digits, ".", "_" and "-")' })
  account_login!: string;
}
