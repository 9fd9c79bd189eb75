import { ArrayMaxSize, ArrayMinSize, IsArray, IsUUID } from 'class-validator';

export class DeleteProjectsDto {
  /** Projects to delete; ids that do not exist are reported in `not_found`. */
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  @IsUUID('all', { each: true, message: 'each value in ids must be a UUID' })
  ids!: string[];
}
