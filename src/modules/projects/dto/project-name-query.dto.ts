import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { NoControlChars } from '../../../common/validation/no-control-chars.decorator';
import { Trim } from '../../../common/validation/trim.transform';

export class ProjectNameQueryDto {
  /** Matched without regard to case, anywhere in the name. */
  // Not Title: these rules run from the last declared up, so a repeated ?name= (an array) has always been
  // answered `name must not contain control characters`, where Title would say `name must be a string`.
  @Trim()
  @IsString()
  @IsNotEmpty({ message: 'name must not be empty' })
  @MaxLength(200)
  @NoControlChars('name')
  name!: string;
}
