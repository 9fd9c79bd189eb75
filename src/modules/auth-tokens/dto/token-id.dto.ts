import { Uuid } from '../../../common/validation/uuid.decorator';

export class TokenIdDto {
  @Uuid()
  token_id!: string;
}
