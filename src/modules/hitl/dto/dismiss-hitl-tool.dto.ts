import { IsOptional } from 'class-validator';
import { ShortName } from '../../../common/validation/short-name.decorator';
import { HitlIdDto } from './hitl-id.dto';

export class DismissHitlToolDto extends HitlIdDto {
  @IsOptional()
  @ShortName()
  answered_by?: string;
}
