import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { PlainText } from '../../../common/validation/plain-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { NoControlChars } from '../../../common/validation/no-control-chars.decorator';
import { API_TOKEN_SCOPES, ApiTokenScope } from '../../tenants/api-token.entity';

/** Longest lifetime a token may be given; without one it does not expire. */
export const MAX_TOKEN_DAYS = 3650;

/** POST /auth/tokens. */
export class CreateApiTokenDto {
  /** What the token is for, shown in the listing (`laptop`, `CI`). */
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @NoControlChars('label')
  @PlainText('label', 100)
  label!: string;

  /** Days until it stops working; left out or null: it never expires. */
  @OptionalField()
  @Max(MAX_TOKEN_DAYS)
  @Min(1)
  @IsInt({ message: 'expires_in_days must be an integer' })
  expires_in_days?: number;

  /** `full` (default): everything the workspace may do; `read`: GET routes and read-only MCP tools. */
  @IsOptional()
  @IsIn(API_TOKEN_SCOPES, { message: `scope must be one of ${API_TOKEN_SCOPES.join(', ')}` })
  scope?: ApiTokenScope;
}
