import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { GenerateHandoffDto } from './generate-handoff.dto';

export class GenerateHandoffToolDto extends IntersectionType(ProjectIdDto, GenerateHandoffDto) {}
