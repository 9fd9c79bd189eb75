import { renderMarkdown, splitFrontMatter } from './markdown.util';

describe('renderMarkdown', () => {
  test('headings start at level 2, paragraphs join their lines, lists become ul', () => {
    expect(renderMarkdown('# Title\n\nOne\ntwo\n\n- a\n- b')).toBe('<h2>Title</h2>\n<p>One two</p>\n<ul><li>a</li><li>b</li></ul>');
  });

  test('HTML in a file is shown as text, never run', () => {
    expect(renderMarkdown('<script>alert(1)</script>')).toBe('<p>&#60;script&#62;alert(1)&#60;/script&#62;</p>');
  });

  test('links to http(s) and same-origin paths are links; javascript: stays text', () => {
    expect(renderMarkdown('[a](https://x.test/y) [b](/pricing) [c](javascript:alert(1))')).toBe(
      '<p><a href="https://x.test/y">a</a> <a href="/pricing">b</a> [c](javascript:alert(1))</p>',
    );
  });

  test('fenced code keeps its lines and escapes them', () => {
    expect(renderMarkdown('```json\n{"a": "<b>"}\n```')).toBe('<pre tabindex="0"><code>{&#34;a&#34;: &#34;&#60;b&#62;&#34;}</code></pre>');
  });
});

describe('splitFrontMatter', () => {
  test('reads key: value lines between --- and returns the rest', () => {
    expect(splitFrontMatter('---\ntitle: Hello: world\ndate: 2026-11-01\n---\nBody')).toEqual({ fields: { title: 'Hello: world', date: '2026-11-01' }, body: 'Body' });
  });

  test('a file without front matter is all body', () => {
    expect(splitFrontMatter('Body')).toEqual({ fields: {}, body: 'Body' });
  });
});
