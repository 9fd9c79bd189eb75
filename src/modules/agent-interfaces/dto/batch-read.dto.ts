import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, ValidateNested } from 'class-validator';
import { BATCH_READ_MAX } from '../batch-read.constants';
import { BatchReadItemDto } from './batch-read-item.dto';

/** batch_read: up to BATCH_READ_MAX reads in one call. */
export class BatchReadDto {
  @IsArray({ message: 'reads must be an array' })
  @ArrayMinSize(1, { message: 'reads must hold at least one read' })
  @ArrayMaxSize(BATCH_READ_MAX, { message: `reads must hold at most ${BATCH_READ_MAX} reads` })
  @ValidateNested({ each: true })
  @Type(() => BatchReadItemDto)
  reads!: BatchReadItemDto[];
}
