import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, ValidateNested } from 'class-validator';
import { MAP_MAX_FILES } from '../codebase-map.constants';
import { CodebaseMapFileDto } from './codebase-map-file.dto';

/** POST .../codebase-map: the repository snapshot to map, as its file list. */
export class CodebaseMapDto {
  @IsArray({ message: 'files must be an array of {path, size?}' })
  @ArrayMinSize(1, { message: 'files must list at least one file' })
  @ArrayMaxSize(MAP_MAX_FILES, { message: `files must list at most ${MAP_MAX_FILES} files` })
  @ValidateNested({ each: true })
  @Type(() => CodebaseMapFileDto)
  files!: CodebaseMapFileDto[];
}
