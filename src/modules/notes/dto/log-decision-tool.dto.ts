import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { LogDecisionDto } from './log-decision.dto';

export class LogDecisionToolDto extends IntersectionType(ProjectIdDto, LogDecisionDto) {}
