import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsObject, IsOptional, Max, Min, ValidateNested } from 'class-validator';
import { EXECUTION_MODES, ExecutionMode } from '../project-settings.constants';
import { ExecutorConfigDto } from './executor-config.dto';
import { OverrideReasonRules } from '../../profile-layers/dto/override-reason.rules';

/**
 * PATCH .../settings: only the fields given change; null stops setting a field
 * at the project (the workspace's or hosted default's value shows through);
 * executor_config is replaced as a whole object.
 */
export class UpdateProjectSettingsDto {
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(500)
  max_pinned_decisions?: number | null;

  @IsOptional()
  @IsBoolean()
  hitl_auto_answer?: boolean | null;

  @IsOptional()
  @IsBoolean()
  auto_worktrees?: boolean | null;

  @IsOptional()
  @IsBoolean()
  require_merge_approval?: boolean | null;

  @IsOptional()
  @IsBoolean()
  code_intel_enabled?: boolean | null;

  @IsOptional()
  @IsIn(EXECUTION_MODES)
  execution_mode?: ExecutionMode | null;

  @IsOptional()
  // Without it an array passes as an empty list of nested objects and is stored as {}.
  @IsObject({ message: 'executor_config must be a JSON object' })
  @ValidateNested()
  @Type(() => ExecutorConfigDto)
  executor_config?: ExecutorConfigDto | null;

  /** Why a narrow-only dial (hitl_auto_answer, require_merge_approval, executor_config.test_min) is set looser than the workspace or hosted default allows; recorded. */
  @IsOptional()
  @OverrideReasonRules()
  override_reason?: string;
}
