import { IntersectionType } from '@nestjs/mapped-types';
import { WorkspaceNoteIdDto } from './workspace-note-id.dto';
import { MoveWorkspaceNoteDto } from './move-workspace-note.dto';

export class MoveWorkspaceNoteToolDto extends IntersectionType(WorkspaceNoteIdDto, MoveWorkspaceNoteDto) {}
