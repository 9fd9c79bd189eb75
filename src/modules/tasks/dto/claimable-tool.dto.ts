import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { ClaimableQueryDto } from './claimable-query.dto';

export class ClaimableToolDto extends IntersectionType(ProjectIdDto, ClaimableQueryDto) {}
