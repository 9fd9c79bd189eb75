import { ProfileScope } from '../profile-scope.constants';
import { CloneProfileLayerDto } from './clone-profile-layer.dto';
import { ScopeIdRules, ScopeTypeRules } from './scope-id.rules';

/**
 * clone_profile_layer's arguments: the route's body plus the source layer, which the route takes
 * from its path (as scope_type/scope_id) and the tool names apart from the target scope.
 */
export class CloneProfileLayerWithSourceDto extends CloneProfileLayerDto {
  @ScopeTypeRules('source_scope_type')
  source_scope_type!: ProfileScope;

  @ScopeIdRules('source_scope_id')
  source_scope_id!: string;
}
