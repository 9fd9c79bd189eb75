import { IsOptional, IsUUID } from 'class-validator';

export class HookDiagnosticsQueryDto {
  /** Only hook calls for this project. */
  @IsOptional()
  @IsUUID('all', { message: 'project_id must be a UUID' })
  project_id?: string;
}
