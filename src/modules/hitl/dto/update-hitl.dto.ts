import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

/** PATCH /hitl/{id}: answer (default) or dismiss a pending request. */
export class UpdateHitlDto {
  @IsOptional()
  @IsIn(['answer', 'dismiss'], { message: 'action must be answer or dismiss' })
  action?: 'answer' | 'dismiss';

  /** Required to answer. */
  @IsOptional()
  @IsNotEmpty({ message: 'answer must not be empty' })
  @MaxLength(50_000)
  @IsString()
  answer?: string;

  /** Who answered; default SERVICE_HUMAN_ID (self-hosted) or "human". */
  @IsOptional()
  @IsNotEmpty()
  @MaxLength(200)
  @IsString()
  answered_by?: string;
}
