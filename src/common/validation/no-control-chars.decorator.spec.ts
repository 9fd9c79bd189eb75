import { IsOptional } from 'class-validator';
import { CONTROL_CHARS } from './control-chars.constants';
import { NoControlChars } from './no-control-chars.decorator';
import { validateInput } from './validate-input';

class OneLine {
  @IsOptional()
  @NoControlChars('name')
  name?: unknown;

  @IsOptional()
  @NoControlChars('paths', { each: true })
  paths?: unknown;
}

class Text {
  @IsOptional()
  @NoControlChars('notes', { allow: 'multiLine', message: 'notes must not contain control characters other than line breaks and tabs' })
  notes?: unknown;

  @IsOptional()
  @NoControlChars('reason', { allow: 'tabAndLineFeed' })
  reason?: unknown;

  @IsOptional()
  @NoControlChars('summary', { allow: 'oneLineNotBlank', message: 'summary must be one line of text that is not blank' })
  summary?: unknown;

  @IsOptional()
  @NoControlChars('body', { allow: 'multiLineNotBlank', message: 'body must be text that is not blank' })
  body?: unknown;
}

/** The answer the API gives for `input`: 'ok' or the `detail` of the 400. */
async function answer(cls: new () => object, input: Record<string, unknown>): Promise<string> {
  try {
    await validateInput(cls, input);
    return 'ok';
  } catch (error) {
    return (error as Error).message;
  }
}

describe('NoControlChars', () => {
  test('a one-line field accepts text, Unicode and an empty string', async () => {
    for (const name of ['Baton', 'naïve café 🚀', '', ' spaced ', 'a\u0085b', 'a\u2028b']) expect(await answer(OneLine, { name })).toBe('ok');
  });

  test('a one-line field refuses every C0 control character and DEL, tab and line breaks included, naming the field', async () => {
    for (let code = 0; code < 0x20; code++) {
      expect(await answer(OneLine, { name: `a${String.fromCharCode(code)}b` })).toBe('name must not contain control characters');
    }
    expect(await answer(OneLine, { name: 'a\u007fb' })).toBe('name must not contain control characters');
  });

  test('each: every value of the array is checked, and the message says so', async () => {
    expect(await answer(OneLine, { paths: ['src/a.ts', 'src/b.ts'] })).toBe('ok');
    expect(await answer(OneLine, { paths: ['src/a.ts', 'src/\nb.ts'] })).toBe('each value in paths must not contain control characters');
  });

  test('multiLine accepts tab, line feed and carriage return, and refuses the other control characters with the given message', async () => {
    expect(await answer(Text, { notes: 'line one\r\n\tline two\n' })).toBe('ok');
    for (const bad of ['\u0000', '\u0007', '\u000b', '\u000c', '\u001b', '\u007f']) {
      expect(await answer(Text, { notes: `a${bad}b` })).toBe('notes must not contain control characters other than line breaks and tabs');
    }
  });

  test('tabAndLineFeed refuses a carriage return as well', async () => {
    expect(await answer(Text, { reason: 'because\n\tof this' })).toBe('ok');
    expect(await answer(Text, { reason: 'because\r\nof this' })).toBe('reason must not contain control characters');
  });

  test('the not-blank patterns refuse white space only, and keep the line rules of their kind', async () => {
    expect(await answer(Text, { summary: ' fixed it ' })).toBe('ok');
    expect(await answer(Text, { summary: '   ' })).toBe('summary must be one line of text that is not blank');
    expect(await answer(Text, { summary: 'one\ntwo' })).toBe('summary must be one line of text that is not blank');
    expect(await answer(Text, { body: 'one\ntwo' })).toBe('ok');
    expect(await answer(Text, { body: ' \n\t ' })).toBe('body must be text that is not blank');
    expect(await answer(Text, { body: 'a\u0000b' })).toBe('body must be text that is not blank');
  });

  test('a value that is not text is refused too (where a field also has a type rule, that one usually answers first)', async () => {
    expect(await answer(OneLine, { name: 5 })).toBe('name must not contain control characters');
  });

  test('the patterns match whole strings, not a part of them', () => {
    expect(CONTROL_CHARS.oneLine.test('ok\u0000')).toBe(false);
    expect(CONTROL_CHARS.multiLine.test('\u0001ok')).toBe(false);
    expect(CONTROL_CHARS.oneLine.test('ok')).toBe(true);
  });
});
