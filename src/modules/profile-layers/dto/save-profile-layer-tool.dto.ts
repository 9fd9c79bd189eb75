import { IntersectionType } from '@nestjs/mapped-types';
import { ProfileScopeParamsDto } from './profile-scope-params.dto';
import { SaveProfileLayerDto } from './save-profile-layer.dto';

export class SaveProfileLayerToolDto extends IntersectionType(ProfileScopeParamsDto, SaveProfileLayerDto) {}
