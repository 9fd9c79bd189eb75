import { PickType } from '@nestjs/mapped-types';
import { PageQueryDto } from './page-query.dto';

/** GET /projects/{id}/tasks/claimable: pending tasks, oldest first (the order an executor takes them); `limit` as in every list. */
export class ClaimableQueryDto extends PickType(PageQueryDto, ['limit'] as const) {}
