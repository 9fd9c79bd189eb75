import { IsNotEmpty, IsString, MaxLength, Validate, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';

@ValidatorConstraint({ name: 'postgresUrl' })
class PostgresUrlRule implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    if (typeof value !== 'string') return false;
    try {
      const url = new URL(value);
      return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '';
    } catch {
      return false;
    }
  }

  defaultMessage(): string {
    // Never repeat the value: it may hold a password.
    return 'url must be a postgres:// or postgresql:// connection URL with a host';
  }
}

export class ConnectDbDto {
  /** Stored sealed; never returned or logged. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  @Validate(PostgresUrlRule)
  url!: string;
}
