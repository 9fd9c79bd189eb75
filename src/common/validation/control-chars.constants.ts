/**
 * What a text may hold of the C0 control characters (U+0000 to U+001F) and
 * DEL, by the kind of field. Nothing Baton stores or echoes may hold the
 * others: they break logs, terminals and the one-line fields of the context
 * block. Each pattern matches a whole acceptable string; the JSON schema of an
 * MCP tool shows it as the field's `pattern`.
 */
export const CONTROL_CHARS = {
  /** One line: names, titles, labels, paths. No control character at all. */
  oneLine: /^[^\u0000-\u001f\u007f]*$/,
  /** One line with at least one character that is not white space. */
  oneLineNotBlank: /^(?=.*\S)[^\u0000-\u001f\u007f]*$/,
  /** Text of several lines: tab, line feed and carriage return, no other control character. */
  multiLine: /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/,
  /** Text of several lines with at least one character that is not white space. */
  multiLineNotBlank: /^(?=[\s\S]*\S)[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/,
  /** Tab and line feed only: a carriage return is refused too (override reasons, as they always were). */
  tabAndLineFeed: /^[^\u0000-\u0008\u000b-\u001f\u007f]*$/,
} as const;
