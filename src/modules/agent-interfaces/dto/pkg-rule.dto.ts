import { IsIn, IsString, Matches } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Title } from '../../../common/validation/title.decorator';
import { PKG_ECOSYSTEMS, PkgEcosystem } from '../pkg-guard.constants';

/** One rule of PUT /pkg-guard/rules. */
export class PkgRuleDto {
  /** A name, a glob with * (`@acme/*`), optionally @version for one exact release. */
  @IsString({ message: 'pattern must be a string' })
  @Matches(/^(?:@[\w*.-]{1,100}\/)?[\w*.-]{1,214}(?:@[0-9A-Za-z][0-9A-Za-z.+_-]{0,99})?$/, { message: 'pattern must be a package name or glob (* allowed), optionally @version' })
  pattern!: string;

  @IsIn(['allow', 'deny'], { message: 'action must be allow or deny' })
  action!: 'allow' | 'deny';

  @OptionalField()
  @IsIn(PKG_ECOSYSTEMS, { message: `ecosystem must be one of ${PKG_ECOSYSTEMS.join(', ')}` })
  ecosystem?: PkgEcosystem;

  @OptionalField()
  @Title('reason', 500)
  reason?: string;
}
