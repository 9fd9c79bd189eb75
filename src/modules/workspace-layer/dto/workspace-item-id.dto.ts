import { Uuid } from '../../../common/validation/uuid.decorator';

export class WorkspaceItemIdDto {
  @Uuid()
  item_id!: string;
}
