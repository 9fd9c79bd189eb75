import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, ValidateNested } from 'class-validator';
import { PKG_RULES_MAX } from '../pkg-guard.constants';
import { PkgRuleDto } from './pkg-rule.dto';

/** PUT /pkg-guard/rules: the workspace's whole rule set (it replaces the stored one). */
export class PkgRulesDto {
  @IsArray({ message: 'rules must be an array' })
  @ArrayMaxSize(PKG_RULES_MAX, { message: `rules must hold at most ${PKG_RULES_MAX} rules` })
  @ValidateNested({ each: true })
  @Type(() => PkgRuleDto)
  rules!: PkgRuleDto[];
}
