import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { LatestCorrectionQueryDto } from './latest-correction-query.dto';

export class LatestCorrectionToolDto extends IntersectionType(ProjectIdDto, LatestCorrectionQueryDto) {}
