import { replaceSection } from './md-section.util';
import { ProjectExtrasError } from './project-extras.errors';

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as ProjectExtrasError).code;
  }
  return 'no error';
};

describe('markdown sections', () => {
  const file = 'Before\n<!-- baton:begin build -->\nold\n<!-- baton:end build -->\nAfter\n';

  test('replaces the text between the anchors and nothing else, matching the name in any case', () => {
    expect(replaceSection('F.md', file, 'BUILD', 'new\n\n', false)).toEqual({
      content: 'Before\n<!-- baton:begin build -->\nnew\n<!-- baton:end build -->\nAfter\n',
      created: false,
    });
  });

  test('a name that is a prefix of another section does not match it', () => {
    const two = '<!-- baton:begin build-fast -->\nx\n<!-- baton:end build-fast -->\n';
    expect(code(() => replaceSection('F.md', two, 'build', 'y', false))).toBe('SECTION_NOT_FOUND');
  });

  test('missing, duplicated and unterminated sections are refused; create appends a missing one', () => {
    expect(code(() => replaceSection('F.md', file, 'deploy', 'x', false))).toBe('SECTION_NOT_FOUND');
    expect(replaceSection('F.md', file, 'deploy', 'x', true)).toEqual({
      content: 'Before\n<!-- baton:begin build -->\nold\n<!-- baton:end build -->\nAfter\n\n<!-- baton:begin deploy -->\nx\n<!-- baton:end deploy -->\n',
      created: true,
    });
    expect(code(() => replaceSection('F.md', file + file, 'build', 'x', false))).toBe('SECTION_AMBIGUOUS');
    expect(code(() => replaceSection('F.md', '<!-- baton:begin a -->\nx', 'a', 'y', false))).toBe('SECTION_MALFORMED');
    expect(code(() => replaceSection('F.md', '<!-- baton:end a -->\n<!-- baton:begin a -->', 'a', 'y', false))).toBe('SECTION_MALFORMED');
  });

  test('special characters in a name are taken literally', () => {
    const dotted = '<!-- baton:begin v1.2 -->\nx\n<!-- baton:end v1.2 -->';
    expect(code(() => replaceSection('F.md', dotted, 'v1x2', 'y', false))).toBe('SECTION_NOT_FOUND');
    expect(replaceSection('F.md', dotted, 'v1.2', 'y', false).content).toBe('<!-- baton:begin v1.2 -->\ny\n<!-- baton:end v1.2 -->');
  });
});
