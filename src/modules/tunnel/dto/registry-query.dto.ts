import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';

/** GET /tunnel/registry: the registry's own query (search, cursor, limit), passed on. */
export class RegistryQueryDto {
  @IsOptional()
  @IsString({ message: 'search must be a string' })
  @MaxLength(200, { message: 'search must be at most 200 characters' })
  search?: string;

  @IsOptional()
  @IsString({ message: 'cursor must be a string' })
  @Matches(/^[A-Za-z0-9:._/@=+-]{1,300}$/, { message: 'cursor must be a cursor the registry returned' })
  cursor?: string;

  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value))
  @IsInt({ message: 'limit must be an integer from 1 to 100' })
  @Min(1, { message: 'limit must be an integer from 1 to 100' })
  @Max(100, { message: 'limit must be an integer from 1 to 100' })
  limit?: number;
}
