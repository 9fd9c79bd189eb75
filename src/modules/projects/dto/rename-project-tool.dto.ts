import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from './project-id.dto';
import { RenameProjectDto } from './rename-project.dto';

/** Arguments of the rename_project tool: the route's path parameter and body together. */
export class RenameProjectToolDto extends IntersectionType(ProjectIdDto, RenameProjectDto) {}
