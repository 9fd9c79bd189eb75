import { IntersectionType } from '@nestjs/mapped-types';
import { SectionParamsDto } from './section-params.dto';
import { UpdateSectionDto } from './update-section.dto';

export class UpdateSectionToolDto extends IntersectionType(SectionParamsDto, UpdateSectionDto) {}
