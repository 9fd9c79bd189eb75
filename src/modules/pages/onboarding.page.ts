import { escapeHtml } from '../../common/http/html-page';

function hookCommand(base: string, route: string, hosted: boolean): string {
  const auth = hosted ? ` -H "Authorization: Bearer \${BATON_TOKEN:-}"` : '';
  return `curl -sS --fail-with-body --max-time 10 -X POST -H 'Content-Type: application/json'${auth} --data-binary @- "\${BATON_URL:-${base}}/hooks/${route}"`;
}

/** Claude Code's hook settings for this instance (docs/hooks.md). */
function hooksSnippet(base: string, hosted: boolean): string {
  const hook = (route: string) => [{ hooks: [{ type: 'command', command: hookCommand(base, route, hosted), timeout: 15 }] }];
  return JSON.stringify({ hooks: { SessionStart: hook('session-start'), SessionEnd: hook('stop') } }, null, 2);
}

function mcpSnippet(base: string, hosted: boolean): string {
  const server: Record<string, unknown> = { type: 'http', url: `${base}/mcp` };
  if (hosted) server.headers = { Authorization: 'Bearer sk_service_YOUR_TOKEN' };
  return JSON.stringify({ mcpServers: { baton: server } }, null, 2);
}

/** The inner HTML of /onboarding: connect an assistant to this instance, set up the hooks, and see the first session arrive. */
export function renderOnboarding(base: string, hosted: boolean): string {
  const token = hosted
    ? `<li>Create an API token for your workspace: <a href="/auth/install">create a token</a> (you sign in first). Keep it: it is shown once.</li>`
    : '<li>This Baton is self-hosted and listens on this machine only: no token is needed.</li>';
  return `<h1>Connect your assistant</h1>
<p class="lede">Point an MCP client at <code>${escapeHtml(base)}/mcp</code>, add the hooks, and start a session.</p>
<ol>
${token}
<li>Add Baton to your MCP client's configuration (for Claude Code, <code>.mcp.json</code> in the repository):</li>
</ol>
<pre tabindex="0" aria-label="MCP configuration"><code>${escapeHtml(mcpSnippet(base, hosted))}</code></pre>
<h2>Hooks: the project's state at every session start</h2>
<p>Put this in <code>.claude/settings.json</code> of the repository or in <code>~/.claude/settings.json</code>. The project is the last folder of the working directory; add <code>?project=Name</code> to the URL to choose another.${
    hosted ? ' Set <code>BATON_TOKEN</code> to your token in the environment the assistant starts from.' : ''
  }</p>
<pre tabindex="0" aria-label="Hook settings"><code>${escapeHtml(hooksSnippet(base, hosted))}</code></pre>
<h2>First session</h2>
<p>Start your assistant in the project's folder. This check turns green as soon as Baton sees a session start.</p>
<p id="first-session" class="status waiting" role="status" aria-live="polite">Waiting for the first session…</p>
<p class="muted">Then open the <a href="/dashboard/">dashboard</a>, or read the <a href="/mcp/tools-doc">tool reference</a>.</p>`;
}
