import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from './project-id.dto';
import { SetAgentInstructionsDto } from './set-agent-instructions.dto';

export class SetAgentInstructionsToolDto extends IntersectionType(ProjectIdDto, SetAgentInstructionsDto) {}
