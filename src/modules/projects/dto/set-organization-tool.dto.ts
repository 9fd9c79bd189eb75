import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from './project-id.dto';
import { SetOrganizationDto } from './set-organization.dto';

export class SetOrganizationToolDto extends IntersectionType(ProjectIdDto, SetOrganizationDto) {}
