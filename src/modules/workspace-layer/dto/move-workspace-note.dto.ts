import { IsUUID } from 'class-validator';

/** POST /workspace/notes/{id}/move: the project that receives the note. */
export class MoveWorkspaceNoteDto {
  @IsUUID('all', { message: 'project_id must be a UUID' })
  project_id!: string;
}
