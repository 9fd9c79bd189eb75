import { IsOptional } from 'class-validator';
import { Uuid } from '../../../common/validation/uuid.decorator';

/** export_ai_log_otel / get_ai_log_export_status: a project, or (omitted) the events that belong to no project. */
export class ExportScopeDto {
  @IsOptional()
  @Uuid()
  project_id?: string;
}
