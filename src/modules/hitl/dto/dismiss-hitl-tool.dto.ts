import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { HitlIdDto } from './hitl-id.dto';

export class DismissHitlToolDto extends HitlIdDto {
  @IsOptional()
  @IsNotEmpty()
  @MaxLength(200)
  @IsString()
  answered_by?: string;
}
