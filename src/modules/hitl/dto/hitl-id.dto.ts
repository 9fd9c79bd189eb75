import { IsUUID } from 'class-validator';

export class HitlIdDto {
  @IsUUID('all', { message: 'request_id must be a UUID' })
  request_id!: string;
}
