import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { CreateHitlDto } from './create-hitl.dto';

export class CreateHitlToolDto extends IntersectionType(ProjectIdDto, CreateHitlDto) {}
