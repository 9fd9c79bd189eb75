import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { CreateNoteDto } from './create-note.dto';

export class CreateNoteToolDto extends IntersectionType(ProjectIdDto, CreateNoteDto) {}
