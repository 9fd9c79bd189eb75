import { IsNotEmpty, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { NoControlChars } from '../../../common/validation/no-control-chars.decorator';

/** PATCH /sessions/{id}: lightweight dashboard state. Only the fields given change. */
export class UpdateSessionDto {
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(120)
  @NoControlChars('name')
  name?: string;

  /** Replaces the stored state object (at most 16 KiB of JSON). */
  @IsOptional()
  @IsObject()
  state?: Record<string, unknown>;
}
