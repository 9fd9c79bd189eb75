import { IsOptional } from 'class-validator';
import { PlainText } from '../../../common/validation/plain-text.decorator';
import { ShortName } from '../../../common/validation/short-name.decorator';
import { HitlIdDto } from './hitl-id.dto';

/** answer_hitl: the request and its answer, one object of arguments (REST says the same with PATCH action=answer). */
export class AnswerHitlDto extends HitlIdDto {
  @PlainText('answer', 50_000)
  answer!: string;

  @IsOptional()
  @ShortName()
  answered_by?: string;
}
