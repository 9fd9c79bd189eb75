import { applyDecorators } from '@nestjs/common';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { NoControlChars } from '../../../common/validation/no-control-chars.decorator';

/**
 * Why a narrow-only dial is set looser than a less specific layer allows, in a
 * profile layer or a project's settings: 3 to 500 characters, tabs and line
 * feeds allowed. Checked in this order (the control-character rule first, as
 * it always has been).
 */
export const OverrideReasonRules = () => applyDecorators(NoControlChars('override_reason', { allow: 'tabAndLineFeed' }), MaxLength(500), MinLength(3), IsString());
