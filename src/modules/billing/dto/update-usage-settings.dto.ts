import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** PATCH /settings/usage: only the fields given change; null removes a cap (no overage at all). */
export class UpdateUsageSettingsDto {
  /** Most a month's compute overage may cost, in whole US dollars. */
  @IsOptional()
  @Min(0, { message: 'compute_overage_cap_usd must be at least 0' })
  @Max(100_000, { message: 'compute_overage_cap_usd must be at most 100000' })
  @IsInt({ message: 'compute_overage_cap_usd must be an integer (whole US dollars) or null' })
  compute_overage_cap_usd?: number | null;

  /** Most storage beyond the plan's, in whole gigabytes. */
  @IsOptional()
  @Min(0, { message: 'storage_overage_cap_gb must be at least 0' })
  @Max(10_000, { message: 'storage_overage_cap_gb must be at most 10000' })
  @IsInt({ message: 'storage_overage_cap_gb must be an integer (whole gigabytes) or null' })
  storage_overage_cap_gb?: number | null;
}
