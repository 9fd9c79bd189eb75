import { IsString, Matches, MaxLength } from 'class-validator';

/** POST/DELETE /tunnel/filesystem-roots: one absolute directory on the connector's machine. */
export class FilesystemRootDto {
  @IsString({ message: 'path must be a string' })
  @MaxLength(1024, { message: 'path must be at most 1024 characters' })
  // POSIX (`/home/ada/work`) or Windows (`C:\work`) absolute, no `..` segment, no control character.
  @Matches(/^(?!.*(?:^|[\\/])\.\.(?:[\\/]|$))(?:\/|[A-Za-z]:[\\/])[^\u0000-\u001f]*$/, { message: 'path must be an absolute directory path without ".." segments' })
  path!: string;
}
