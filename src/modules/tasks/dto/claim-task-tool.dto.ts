import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { ClaimTaskDto } from './claim-task.dto';

export class ClaimTaskToolDto extends IntersectionType(ProjectIdDto, ClaimTaskDto) {}
