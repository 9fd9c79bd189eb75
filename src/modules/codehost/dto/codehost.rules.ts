import { applyDecorators } from '@nestjs/common';
import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';
import { NoControlChars } from '../../../common/validation/no-control-chars.decorator';

/** `owner/name` of a repository, as the code host spells them. */
export const REPO_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/(?!\.\.?$)[A-Za-z0-9._-]{1,100}$/;

export function RepoRules() {
  return applyDecorators(
    IsString({ message: 'repo must be a string' }),
    Matches(REPO_PATTERN, { message: 'repo must be "owner/name" (letters, digits, "-" in the owner; letters, digits, ".", "_", "-" in the name)' }),
  );
}

/** A code-host account name (the account_login of a connection). */
export function AccountLoginRules() {
  return applyDecorators(
    IsString({ message: 'account_login must be a string' }),
    MaxLength(100, { message: 'account_login must be at most 100 characters' }),
    Matches(/^[A-Za-z0-9._-]+$/, { message: 'account_login must be a code-host account name (letters, digits, ".", "_" and "-")' }),
  );
}

/** A personal access token: printable, no spaces; stored sealed, never shown. */
export function TokenRules() {
  return applyDecorators(
    IsString({ message: 'token must be a string' }),
    IsNotEmpty({ message: 'token must not be empty' }),
    MaxLength(500, { message: 'token must be at most 500 characters' }),
    Matches(/^[\x21-\x7e]+$/, { message: 'token must be printable characters without spaces' }),
  );
}

/** A branch, tag or commit name. */
export function RefRules(field: string) {
  return applyDecorators(
    IsString({ message: `${field} must be a string` }),
    MaxLength(255, { message: `${field} must be at most 255 characters` }),
    Matches(/^(?!\/)(?!.*\.\.)(?!.*\/$)[A-Za-z0-9._/-]+$/, { message: `${field} must be a branch or tag name (letters, digits, ".", "_", "-", "/"; no "..")` }),
  );
}

/** A file's path inside the repository: relative, no "." or ".." segments. */
export function RepoFilePathRules(field = 'path') {
  return applyDecorators(
    IsString({ message: `${field} must be a string` }),
    IsNotEmpty({ message: `${field} must not be empty` }),
    MaxLength(1000, { message: `${field} must be at most 1000 characters` }),
    NoControlChars(field),
    Matches(/^(?!\/)(?!.*\/\/)(?!.*\/$)(?!(?:.*\/)?\.\.?(?:\/|$)).+$/, {
      message: `${field} must be a relative path inside the repository (no leading "/", no "." or ".." segments)`,
    }),
  );
}
