import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class ProjectNameQueryDto {
  /** Matched without regard to case, anywhere in the name. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;
}
