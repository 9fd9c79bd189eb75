import { IsBoolean, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { NoControlChars } from '../../../common/validation/no-control-chars.decorator';
import { Uuid } from '../../../common/validation/uuid.decorator';

/**
 * set_ai_log_export_config. Only the fields given change; null clears an
 * override. There is deliberately no field for headers: credentials live only
 * in the operator's SERVICE_AI_LOG_OTEL_HEADERS.
 */
export class SetExportConfigDto {
  @Uuid()
  project_id!: string;

  /** OTLP/HTTP logs URL; used when the operator configured none. Null clears it. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(2000)
  endpoint?: string | null;

  /** Resource service.name of this project's records. Null clears it. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  @NoControlChars('service_name')
  service_name?: string | null;

  /** false: never export this project's events. true: follow the operator's switch (cannot turn it on). */
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}
