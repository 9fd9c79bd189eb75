import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { UpdateNotifySettingsDto } from './update-notify-settings.dto';

export class UpdateNotifySettingsToolDto extends IntersectionType(ProjectIdDto, UpdateNotifySettingsDto) {}
