import { IsOptional, IsUUID } from 'class-validator';
import { ListHitlQueryDto } from './list-hitl-query.dto';

/** list_hitl_requests: one project's requests, or every project's when project_id is omitted. */
export class ListHitlToolDto extends ListHitlQueryDto {
  @IsOptional()
  @IsUUID('all', { message: 'project_id must be a UUID' })
  project_id?: string;
}
