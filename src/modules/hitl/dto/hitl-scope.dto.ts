import { IsOptional } from 'class-validator';
import { Uuid } from '../../../common/validation/uuid.decorator';

/** list_hitl_requests covers both list routes: one project's requests, or every project's when project_id is left out. */
export class HitlScopeDto {
  @IsOptional()
  @Uuid()
  project_id?: string;
}
