import { escapeHtml } from '../../common/http/html-page';
import type { DemoProject } from './demo-store.service';

const COLUMNS: [status: string, name: string][] = [
  ['todo', 'Ready'],
  ['in_progress', 'In progress'],
  ['completed', 'Done'],
];

/** The inner HTML of /demo: the stored demo project's board, sessions, open questions and pinned decisions, read-only. */
export function renderDemoBoard(demo: DemoProject): string {
  const columns = COLUMNS.map(([status, name], i) => {
    const items = demo.items.filter((item) => item.status === status);
    const list = items
      .map(
        (item) =>
          `<li><strong>${escapeHtml(item.title)}</strong><br><span class="muted">${escapeHtml([item.wave, item.claimed_by ? `claimed by ${item.claimed_by}` : null].filter(Boolean).join(' · '))}</span></li>`,
      )
      .join('');
    return `<section class="card" aria-labelledby="column-${i}"><h2 id="column-${i}">${escapeHtml(name)}</h2><ol>${list}</ol></section>`;
  });
  const sessions = demo.sessions.map((s) => `<li><strong>${escapeHtml(s.name)}</strong> <span class="muted">${escapeHtml(s.status)}</span></li>`).join('');
  const questions = demo.questions
    .filter((q) => q.status === 'pending')
    .map((q) => `<p><strong>${escapeHtml(q.urgency)}</strong> · from ${escapeHtml(q.asked_by ?? 'an assistant')}</p><p>${escapeHtml(q.question)}</p>`)
    .join('');
  const decisions = demo.decisions.map((d) => `<li><strong>${escapeHtml(d.title)}</strong>: ${escapeHtml(d.body)}</li>`).join('');
  return `<h1>Demo project: ${escapeHtml(demo.project.name)}</h1>
<p class="lede">A read-only look at a project Baton keeps: two assistants working at once, each on its own files, and a question waiting for a person.</p>
${demo.goal ? `<p><strong>Goal:</strong> ${escapeHtml(demo.goal.content)}</p>` : ''}
<h2>Sprint board</h2>
<div class="board">${columns.join('')}</div>
<div class="cards">
<section class="card"><h2>Active sessions</h2><ul>${sessions}</ul></section>
<section class="card"><h2>Waiting for a person</h2>${questions || '<p>No open question.</p>'}</section>
<section class="card"><h2>Pinned decisions</h2><ul>${decisions}</ul></section>
</div>
<p class="muted">This demo is read-only. <a href="/onboarding">Connect your own assistant</a> to see your project here.</p>`;
}
