import { IntersectionType } from '@nestjs/mapped-types';
import { FileParamsDto } from './file-params.dto';
import { WriteFileDto } from './write-file.dto';

export class WriteFileToolDto extends IntersectionType(FileParamsDto, WriteFileDto) {}
