import { Uuid } from '../../../common/validation/uuid.decorator';

export class WorkspaceNoteIdDto {
  @Uuid()
  note_id!: string;
}
