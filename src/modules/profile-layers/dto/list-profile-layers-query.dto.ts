import { IsOptional } from 'class-validator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { ProfileScope } from '../profile-scope.constants';
import { ScopeIdRules, ScopeTypeRules } from './scope-id.rules';

/** GET /profile-layers and list_profile_layers: every filter is optional. */
export class ListProfileLayersQueryDto {
  @IsOptional()
  @ScopeTypeRules('scope_type')
  scope_type?: ProfileScope;

  @IsOptional()
  @ScopeIdRules('scope_id')
  scope_id?: string;

  /** The layers of one project: its project layer and the layers of its sessions. */
  @IsOptional()
  @Uuid()
  project_id?: string;
}
