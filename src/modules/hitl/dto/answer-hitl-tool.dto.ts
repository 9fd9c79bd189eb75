import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { HitlIdDto } from './hitl-id.dto';

export class AnswerHitlToolDto extends HitlIdDto {
  @IsNotEmpty({ message: 'answer must not be empty' })
  @MaxLength(50_000)
  @IsString()
  answer!: string;

  @IsOptional()
  @IsNotEmpty()
  @MaxLength(200)
  @IsString()
  answered_by?: string;
}
