import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { ListNotesQueryDto } from './list-notes-query.dto';

export class ListNotesToolDto extends IntersectionType(ProjectIdDto, ListNotesQueryDto) {}
