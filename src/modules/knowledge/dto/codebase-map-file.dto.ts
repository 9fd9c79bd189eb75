import { IsInt, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { MAP_PATH_MAX } from '../codebase-map.constants';

/** A relative path with `/` separators: no leading `/`, no `.` or `..` segment, no empty segment, no backslash or control character. */
const REPO_PATH = /^(?!\/)(?!.*(^|\/)\.{1,2}(\/|$))(?!.*\/\/)(?!.*\/$)[^\\\u0000-\u001f\u007f]+$/;

/** One file of a repository snapshot: its path and, optionally, its size in bytes. */
export class CodebaseMapFileDto {
  @IsString({ message: 'files[].path must be a string' })
  @MaxLength(MAP_PATH_MAX, { message: `files[].path must be at most ${MAP_PATH_MAX} characters` })
  @Matches(REPO_PATH, { message: 'files[].path must be a relative path inside the repository (a/b/c.ts: no leading /, no . or .. segment, no backslash)' })
  path!: string;

  @OptionalField()
  @IsInt({ message: 'files[].size must be a whole number of bytes' })
  @Min(0, { message: 'files[].size must not be negative' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'files[].size is too large' })
  size?: number;
}
