import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, ValidateNested } from 'class-validator';
import { PinDecisionDto } from './pin-decision.dto';

/** POST .../decisions-pinned/replace-all: the new pinned set, in the order GET lists it (newest first). */
export class ReplaceAllDecisionsDto {
  @IsArray({ message: 'decisions must be an array' })
  @ArrayMaxSize(500, { message: 'decisions must hold at most 500 decisions' })
  @ValidateNested({ each: true })
  @Type(() => PinDecisionDto)
  decisions!: PinDecisionDto[];
}
