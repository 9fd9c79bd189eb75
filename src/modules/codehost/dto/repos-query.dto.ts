import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { AccountLoginRules } from './codehost.rules';

/**
 * GET .../codehost/repos: without `account_login`, what the project's access sees; hosted, with it,
 * what that connection of the signed-in person sees (to choose a repository before connecting).
 */
export class ReposQueryDto {
  @OptionalField()
  @AccountLoginRules()
  account_login?: string;
}
