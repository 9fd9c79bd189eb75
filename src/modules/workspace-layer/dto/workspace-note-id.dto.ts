import { IsUUID } from 'class-validator';

export class WorkspaceNoteIdDto {
  @IsUUID('all', { message: 'note_id must be a UUID' })
  note_id!: string;
}
