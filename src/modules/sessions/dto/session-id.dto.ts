import { IsUUID } from 'class-validator';

export class SessionIdDto {
  @IsUUID('all', { message: 'session_id must be a UUID' })
  session_id!: string;
}
