import { IsNotEmpty, IsObject, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** PATCH /sessions/{id}: lightweight dashboard state. Only the fields given change. */
export class UpdateSessionDto {
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(120)
  @Matches(/^[^\u0000-\u001f\u007f]*$/, { message: 'name must not contain control characters' })
  name?: string;

  /** Replaces the stored state object (at most 16 KiB of JSON). */
  @IsOptional()
  @IsObject()
  state?: Record<string, unknown>;
}
