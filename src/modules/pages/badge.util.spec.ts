import { renderBadge } from './badge.util';

describe('renderBadge', () => {
  test('names label and value for screen readers and grows with the text', () => {
    const short = renderBadge('MCP tools', '9', 'blue');
    const long = renderBadge('MCP tools', '1234', 'blue');
    expect(short).toContain('aria-label="MCP tools: 9"');
    expect(short).toContain('<title>MCP tools: 9</title>');
    expect(Number(/width="(\d+)"/.exec(long)![1])).toBeGreaterThan(Number(/width="(\d+)"/.exec(short)![1]));
  });

  test('escapes what it is given', () => {
    expect(renderBadge('a<b', '"x"', 'grey')).toContain('aria-label="a&#60;b: &#34;x&#34;"');
  });
});
