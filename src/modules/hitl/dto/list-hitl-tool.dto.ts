import { IsOptional } from 'class-validator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { ListHitlQueryDto } from './list-hitl-query.dto';

/** list_hitl_requests: one project's requests, or every project's when project_id is omitted. */
export class ListHitlToolDto extends ListHitlQueryDto {
  @IsOptional()
  @Uuid()
  project_id?: string;
}
