import { Uuid } from '../../../common/validation/uuid.decorator';

export class HitlIdDto {
  @Uuid()
  request_id!: string;
}
