import { Matches } from 'class-validator';
import { CONTROL_CHARS } from './control-chars.constants';

/**
 * Refuses a text that holds control characters. `allow` names what the field
 * may still hold (see CONTROL_CHARS; default one line, no control character at
 * all). The answer is `<field> must not contain control characters` (`each
 * value in <field> ...` for `each`) unless `message` words it otherwise.
 *
 * It is class-validator's Matches, so the rule is checked where the decorator
 * stands among a field's other rules, and MCP tool schemas show the pattern.
 */
export function NoControlChars(field: string, options: { allow?: keyof typeof CONTROL_CHARS; each?: boolean; message?: string } = {}): PropertyDecorator {
  const { allow = 'oneLine', each } = options;
  const message = options.message ?? `${each ? 'each value in ' : ''}${field} must not contain control characters`;
  return Matches(CONTROL_CHARS[allow], each ? { each, message } : { message });
}
