import { IsString, Matches } from 'class-validator';
import { SECTION_NAME } from '../project-extras.constants';
import { FileParamsDto } from './file-params.dto';

export class SectionParamsDto extends FileParamsDto {
  @IsString({ message: 'section must be a string' })
  @Matches(SECTION_NAME, { message: 'section must be a name of letters, digits and _ . - (at most 64 characters)' })
  section!: string;
}
