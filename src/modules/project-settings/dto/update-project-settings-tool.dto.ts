import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { UpdateProjectSettingsDto } from './update-project-settings.dto';

export class UpdateProjectSettingsToolDto extends IntersectionType(ProjectIdDto, UpdateProjectSettingsDto) {}
