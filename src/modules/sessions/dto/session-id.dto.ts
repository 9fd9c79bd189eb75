import { Uuid } from '../../../common/validation/uuid.decorator';

export class SessionIdDto {
  @Uuid()
  session_id!: string;
}
