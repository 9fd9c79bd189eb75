import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { HitlIdDto } from './hitl-id.dto';

export class AnswerHitlToolDto extends HitlIdDto {
  @IsString()
  @IsNotEmpty({ message: 'answer must not be empty' })
  @MaxLength(50_000)
  answer!: string;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  answered_by?: string;
}
