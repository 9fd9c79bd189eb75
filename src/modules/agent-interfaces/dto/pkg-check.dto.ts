import { IsIn, IsString, Matches } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { PKG_ECOSYSTEMS, PkgEcosystem } from '../pkg-guard.constants';

export const PACKAGE_NAME = /^(?:@[a-zA-Z0-9][\w.-]{0,100}\/)?[a-zA-Z0-9][\w.-]{0,213}$/;
export const PACKAGE_VERSION = /^[0-9A-Za-z][0-9A-Za-z.+_-]{0,99}$/;

/** POST /pkg-guard/check: the package an assistant is about to install. */
export class PkgCheckDto {
  @IsString({ message: 'name must be a string' })
  @Matches(PACKAGE_NAME, { message: 'name must be a package name (letters, digits, - _ ., optionally @scope/), at most 214 characters' })
  name!: string;

  @OptionalField()
  @IsString({ message: 'version must be a string' })
  @Matches(PACKAGE_VERSION, { message: 'version must be an exact version such as 1.2.3' })
  version?: string;

  /** npm (default) or pypi. */
  @OptionalField()
  @IsIn(PKG_ECOSYSTEMS, { message: `ecosystem must be one of ${PKG_ECOSYSTEMS.join(', ')}` })
  ecosystem?: PkgEcosystem;
}
