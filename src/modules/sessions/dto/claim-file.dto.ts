import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import { ReleaseFileDto } from './release-file.dto';

export class ClaimFileDto extends ReleaseFileDto {
  /** Take the lock even while another live session holds it (that session is not told). */
  @IsOptional()
  @IsBoolean()
  force?: boolean;

  /** Lifetime of this lock; default SERVICE_FILE_LOCK_TTL_SECONDS (4 h). */
  @IsOptional()
  @IsInt()
  @Min(60)
  @Max(30 * 86400)
  ttl_seconds?: number;
}
