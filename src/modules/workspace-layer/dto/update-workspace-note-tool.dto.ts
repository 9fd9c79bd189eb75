import { IntersectionType } from '@nestjs/mapped-types';
import { WorkspaceNoteIdDto } from './workspace-note-id.dto';
import { UpdateNoteDto } from '../../notes/dto/update-note.dto';

export class UpdateWorkspaceNoteToolDto extends IntersectionType(WorkspaceNoteIdDto, UpdateNoteDto) {}
