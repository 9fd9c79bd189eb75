import { IsString, IsUUID, Matches, MaxLength, MinLength } from 'class-validator';

export class ReleaseFileDto {
  /** Repository-relative path; `./a//b` and `a/b` name the same file. */
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  @Matches(/^[^\u0000-\u001f\u007f]*$/, { message: 'file_path must not contain control characters' })
  file_path!: string;

  @IsUUID('all', { message: 'session_id must be a UUID' })
  session_id!: string;
}
