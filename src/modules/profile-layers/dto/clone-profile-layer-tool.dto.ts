import { ProfileScope } from '../profile-scope.constants';
import { CloneProfileLayerDto } from './clone-profile-layer.dto';
import { ScopeIdRules, ScopeTypeRules } from './scope-id.rules';

/** clone_profile_layer(source_scope_type, source_scope_id, target_scope_type, target_scope_id). */
export class CloneProfileLayerToolDto extends CloneProfileLayerDto {
  @ScopeTypeRules('source_scope_type')
  source_scope_type!: ProfileScope;

  @ScopeIdRules('source_scope_id')
  source_scope_id!: string;
}
