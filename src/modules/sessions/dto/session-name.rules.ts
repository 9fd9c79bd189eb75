import { applyDecorators } from '@nestjs/common';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { NoControlChars } from '../../../common/validation/no-control-chars.decorator';

const SESSION_NAME_MAX = 120;

/**
 * A session's name, at registration and when renamed: one line of 1 to 120
 * characters. Checked in this order (the control-character rule first, as it
 * always has been), so a name that is not text answers `name must not contain
 * control characters`.
 */
export const SessionNameRules = () => applyDecorators(NoControlChars('name'), MaxLength(SESSION_NAME_MAX), IsNotEmpty(), IsString());
