import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { AddDevlogDto } from './add-devlog.dto';

export class AddDevlogToolDto extends IntersectionType(ProjectIdDto, AddDevlogDto) {}
