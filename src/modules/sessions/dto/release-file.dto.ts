import { IsString, MaxLength, MinLength } from 'class-validator';
import { NoControlChars } from '../../../common/validation/no-control-chars.decorator';
import { Uuid } from '../../../common/validation/uuid.decorator';

export class ReleaseFileDto {
  /** Repository-relative path; `./a//b` and `a/b` name the same file. */
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  @NoControlChars('file_path')
  file_path!: string;

  @Uuid()
  session_id!: string;
}
