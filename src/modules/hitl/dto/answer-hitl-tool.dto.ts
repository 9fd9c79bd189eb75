import { IsOptional } from 'class-validator';
import { PlainText } from '../../../common/validation/plain-text.decorator';
import { ShortName } from '../../../common/validation/short-name.decorator';
import { HitlIdDto } from './hitl-id.dto';

export class AnswerHitlToolDto extends HitlIdDto {
  @PlainText('answer', 50_000)
  answer!: string;

  @IsOptional()
  @ShortName()
  answered_by?: string;
}
