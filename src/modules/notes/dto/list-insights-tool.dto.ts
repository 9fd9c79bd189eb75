import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { ListInsightsQueryDto } from './list-insights-query.dto';

export class ListInsightsToolDto extends IntersectionType(ProjectIdDto, ListInsightsQueryDto) {}
