import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';

/** The executor_config.* sub-fields of a project's settings. Unknown sub-fields are refused. */
export class ExecutorConfigDto {
  /** Local checkout the executor works in (self-hosted); changing it needs a restart of the executor. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  repo_path?: string;

  /** Minimum number of tests a change must come with. */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10_000)
  test_min?: number;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  test_command?: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(64)
  max_parallel?: number;

  /** The checkout's file system ignores case (macOS, Windows): `SRC/App.ts` and `src/app.ts` are one file to lock. */
  @IsOptional()
  @IsBoolean()
  case_insensitive_paths?: boolean;
}
