import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { HitlIdDto } from './hitl-id.dto';

export class DismissHitlToolDto extends HitlIdDto {
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  answered_by?: string;
}
