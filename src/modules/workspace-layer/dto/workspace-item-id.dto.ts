import { IsUUID } from 'class-validator';

export class WorkspaceItemIdDto {
  @IsUUID('all', { message: 'item_id must be a UUID' })
  item_id!: string;
}
