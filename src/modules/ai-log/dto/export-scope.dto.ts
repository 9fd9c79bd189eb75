import { IsOptional, IsUUID } from 'class-validator';

/** export_ai_log_otel / get_ai_log_export_status: a project, or (omitted) the events that belong to no project. */
export class ExportScopeDto {
  @IsOptional()
  @IsUUID('all', { message: 'project_id must be a UUID' })
  project_id?: string;
}
