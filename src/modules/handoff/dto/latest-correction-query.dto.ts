import { IsOptional, IsUUID } from 'class-validator';

export class LatestCorrectionQueryDto {
  /** Only corrections recorded for this session. */
  @IsOptional()
  @IsUUID('all', { message: 'session_id must be a UUID' })
  session_id?: string;
}
