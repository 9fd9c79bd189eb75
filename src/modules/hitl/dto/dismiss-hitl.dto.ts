import { IsOptional } from 'class-validator';
import { ShortName } from '../../../common/validation/short-name.decorator';
import { HitlIdDto } from './hitl-id.dto';

/** dismiss_hitl: the request and who dismisses it (REST says the same with PATCH action=dismiss). */
export class DismissHitlDto extends HitlIdDto {
  @IsOptional()
  @ShortName()
  answered_by?: string;
}
