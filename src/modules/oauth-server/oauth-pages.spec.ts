import { escapeHtml } from '../../common/http/html-page';
import { consentPage } from './oauth-pages';

describe('OAuth pages', () => {
  test('every character that could open markup is escaped', () => {
    expect(escapeHtml(`<script>alert("x")</script> & 'y'`)).toBe('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#39;y&#39;');
  });

  test('a client that names itself with markup is shown as text on the consent page', () => {
    const html = consentPage('/oauth/interaction/abc', 'token"x', {
      clientName: '<img src=x onerror=alert(1)>',
      redirectHost: 'evil.example"><b>',
      scopes: ['mcp', '<i>'],
      workspaceName: "Ada's <workspace>",
      email: 'ada@example.test',
    });
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<i>');
    expect(html).not.toContain('"><b>');
    expect(html).toContain('&#60;img src=x onerror=alert(1)&#62;');
    expect(html).toContain('value="token&#34;x"');
    expect(html).toContain('Ada&#39;s &#60;workspace&#62;');
  });
});
