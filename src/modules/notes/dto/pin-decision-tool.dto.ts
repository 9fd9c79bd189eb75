import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { PinDecisionDto } from './pin-decision.dto';

export class PinDecisionToolDto extends IntersectionType(ProjectIdDto, PinDecisionDto) {}
