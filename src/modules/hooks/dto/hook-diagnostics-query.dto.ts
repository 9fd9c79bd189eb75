import { IsOptional } from 'class-validator';
import { Uuid } from '../../../common/validation/uuid.decorator';

export class HookDiagnosticsQueryDto {
  /** Only hook calls for this project. */
  @IsOptional()
  @Uuid()
  project_id?: string;
}
