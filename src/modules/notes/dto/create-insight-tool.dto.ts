import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { CreateInsightDto } from './create-insight.dto';

export class CreateInsightToolDto extends IntersectionType(ProjectIdDto, CreateInsightDto) {}
