import { IsIn } from 'class-validator';
import { ORGANIZATION_STATUSES, OrganizationStatus } from '../project-extras.constants';

export class SetOrganizationDto {
  @IsIn(ORGANIZATION_STATUSES, { message: `status must be one of ${ORGANIZATION_STATUSES.join(', ')}` })
  status!: OrganizationStatus;
}
