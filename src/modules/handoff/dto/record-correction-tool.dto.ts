import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { RecordCorrectionDto } from './record-correction.dto';

export class RecordCorrectionToolDto extends IntersectionType(ProjectIdDto, RecordCorrectionDto) {}
