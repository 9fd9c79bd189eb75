import { Uuid } from '../../../common/validation/uuid.decorator';

/** POST /workspace/notes/{id}/move: the project that receives the note. */
export class MoveWorkspaceNoteDto {
  @Uuid()
  project_id!: string;
}
