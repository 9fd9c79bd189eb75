import { PickType } from '@nestjs/mapped-types';
import { ProfileScope } from '../profile-scope.constants';
import { SaveProfileLayerDto } from './save-profile-layer.dto';
import { ScopeIdRules, ScopeTypeRules } from './scope-id.rules';

/** POST /profile-layers/{scope_type}/{scope_id}/clone: where the copy goes. */
export class CloneProfileLayerDto extends PickType(SaveProfileLayerDto, ['expected_revision', 'override_reason'] as const) {
  @ScopeTypeRules('target_scope_type')
  target_scope_type!: ProfileScope;

  @ScopeIdRules('target_scope_id')
  target_scope_id!: string;
}
