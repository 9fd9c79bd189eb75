import { IsOptional } from 'class-validator';
import { Uuid } from '../../../common/validation/uuid.decorator';

export class LatestCorrectionQueryDto {
  /** Only corrections recorded for this session. */
  @IsOptional()
  @Uuid()
  session_id?: string;
}
