import { Uuid } from '../../../common/validation/uuid.decorator';
import { ListMessagesQueryDto } from '../../messages/dto/list-messages-query.dto';

/** The `messages` read of batch_read: GET /projects/{id}/messages (no reader's cursor moves). */
export class BatchMessagesReadDto extends ListMessagesQueryDto {
  @Uuid()
  project_id!: string;
}
