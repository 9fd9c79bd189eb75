import { escapeHtml } from '../../common/http/html-page';
import { SetupHealth, SetupNeeded } from './setup.service';

/** The inner HTML of /setup: whether the instance is healthy, and what it still needs. */
export function renderSetup(needed: SetupNeeded, health: SetupHealth): string {
  const components = Object.entries(health.components)
    .map(([name, c]) => `<tr><th scope="row">${escapeHtml(name)}</th><td class="status ${c.status === 'ok' ? 'ok' : 'waiting'}">${escapeHtml(c.status)}</td></tr>`)
    .join('');
  const todo = needed.needed
    ? `<p class="status waiting">Still needed:</p><ul>${needed.missing.map((m) => `<li>${escapeHtml(m)}</li>`).join('')}</ul>`
    : '<p class="status ok">Nothing left to set up.</p>';
  return `<h1>Setup</h1>
<p class="lede">This Baton runs ${health.mode === 'hosted' ? 'hosted' : 'self-hosted'} on ${escapeHtml(health.database)}, version ${escapeHtml(health.version)}, at <code>${escapeHtml(health.base_url)}</code>.</p>
<h2>Health</h2>
<table><caption class="muted">Checked just now (<a href="/setup/health">as JSON</a>)</caption><tbody>${components}</tbody></table>
<h2>What is left</h2>
${todo}
<p><a href="/onboarding">Connect an assistant</a></p>`;
}
