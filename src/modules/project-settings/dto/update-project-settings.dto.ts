import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, Max, Min, ValidateNested } from 'class-validator';
import { EXECUTION_MODES, ExecutionMode } from '../project-settings.constants';
import { ExecutorConfigDto } from './executor-config.dto';

/** PATCH .../settings: only the fields given change; executor_config is replaced as a whole object. */
export class UpdateProjectSettingsDto {
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(500)
  max_pinned_decisions?: number;

  @IsOptional()
  @IsBoolean()
  hitl_auto_answer?: boolean;

  @IsOptional()
  @IsBoolean()
  auto_worktrees?: boolean;

  @IsOptional()
  @IsBoolean()
  require_merge_approval?: boolean;

  @IsOptional()
  @IsBoolean()
  code_intel_enabled?: boolean;

  @IsOptional()
  @IsIn(EXECUTION_MODES)
  execution_mode?: ExecutionMode;

  @IsOptional()
  @ValidateNested()
  @Type(() => ExecutorConfigDto)
  executor_config?: ExecutorConfigDto;
}
