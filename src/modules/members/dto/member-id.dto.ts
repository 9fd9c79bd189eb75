import { Uuid } from '../../../common/validation/uuid.decorator';

export class MemberIdDto {
  @Uuid()
  member_id!: string;
}
