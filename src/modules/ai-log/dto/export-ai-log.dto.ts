import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { AiLogFilterDto } from './ai-log-filter.dto';

/** export_ai_log: the log of a time range as JSON lines, oldest first. */
export class ExportAiLogDto extends AiLogFilterDto {
  /** One project's events; omitted: every event of the workspace. */
  @IsOptional()
  @Uuid()
  project_id?: string;

  /** Lines per answer: 1 to 10000, default 1000; next_cursor continues. */
  @IsOptional()
  @Max(10_000)
  @Min(1)
  @IsInt({ message: 'limit must be an integer' })
  limit?: number;
}
