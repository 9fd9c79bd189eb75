import { searchWords, snippetOf } from './search-words.util';

describe('search words and snippets', () => {
  test('operators and punctuation separate words', () => {
    expect(searchWords('"foo" OR bar* -baz NEAR(x)')).toEqual(['foo', 'OR', 'bar', 'baz', 'NEAR', 'x']);
    expect(searchWords('*"():')).toEqual([]);
  });

  test('a snippet starts near the first word found, marked where cut', () => {
    const text = `${'a '.repeat(100)}deploying the thing ${'b '.repeat(100)}`;
    const snippet = snippetOf(text, ['deploy'], 40);
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet).toContain('deploying');
    expect(snippetOf('short text', ['nothing'], 40)).toBe('short text');
  });
});
