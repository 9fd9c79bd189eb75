import { ArrayMaxSize, ArrayMinSize, IsArray } from 'class-validator';
import { Uuid } from '../../../common/validation/uuid.decorator';

export class DeleteProjectsDto {
  /** Projects to delete; ids that do not exist are reported in `not_found`. */
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  @Uuid({ each: true })
  ids!: string[];
}
