import { IntersectionType } from '@nestjs/mapped-types';
import { NoteIdParamsDto } from './note-id-params.dto';
import { UpdateNoteDto } from './update-note.dto';

export class UpdateNoteToolDto extends IntersectionType(NoteIdParamsDto, UpdateNoteDto) {}
