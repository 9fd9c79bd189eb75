import { IsIn, IsOptional } from 'class-validator';
import { CONTEXT_MODES, ContextMode } from '../context.constants';

export class ContextBlockQueryDto {
  /** full (default): every section up to the cap; brief: the first lines of each section. */
  @IsOptional()
  @IsIn(CONTEXT_MODES, { message: `mode must be one of: ${CONTEXT_MODES.join(', ')}` })
  mode?: ContextMode;
}
