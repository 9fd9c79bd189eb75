import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { AccountLoginRules, RepoRules, TokenRules } from './codehost.rules';

/**
 * POST .../codehost/connect. Hosted: `account_login` names one of the signed-in person's code-host
 * connections. Self-hosted: `token` is a personal access token, sent once and stored sealed.
 */
export class ConnectCodehostDto {
  @RepoRules()
  repo!: string;

  @OptionalField()
  @AccountLoginRules()
  account_login?: string;

  @OptionalField()
  @TokenRules()
  token?: string;
}
