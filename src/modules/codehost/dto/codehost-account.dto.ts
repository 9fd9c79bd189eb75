import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { AccountLoginRules, TokenRules } from './codehost.rules';

/** PATCH .../codehost/account: the access a connected project uses from now on (hosted: another connection; self-hosted: a new token). */
export class CodehostAccountDto {
  @OptionalField()
  @AccountLoginRules()
  account_login?: string;

  @OptionalField()
  @TokenRules()
  token?: string;
}
