import { ProfileScope } from '../profile-scope.constants';
import { ScopeIdRules, ScopeTypeRules } from './scope-id.rules';

/** `{scope_type}/{scope_id}` of a route, or the same arguments of a tool. */
export class ProfileScopeParamsDto {
  @ScopeTypeRules('scope_type')
  scope_type!: ProfileScope;

  /** `global` or an operator-chosen id (hosted_default), `singleton` (workspace), a human id (user), a project or session UUID. */
  @ScopeIdRules('scope_id')
  scope_id!: string;
}
