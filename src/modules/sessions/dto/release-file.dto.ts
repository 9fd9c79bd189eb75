import { IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import { NoControlChars } from '../../../common/validation/no-control-chars.decorator';

export class ReleaseFileDto {
  /** Repository-relative path; `./a//b` and `a/b` name the same file. */
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  @NoControlChars('file_path')
  file_path!: string;

  @IsUUID('all', { message: 'session_id must be a UUID' })
  session_id!: string;
}
