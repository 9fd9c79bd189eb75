import { escapeHtml as e } from '../../common/http/html-page';
import type { AuditEntry } from '../site/admin-audit.service';
import type { FeedbackEntry } from '../site/feedback.service';
import type { Publication } from '../site/publications.service';
import type { WaitlistEntry } from '../site/waitlist.service';
import type { AdminHealth } from './admin-health.service';
import type { GitStatus } from './admin-ops.service';
import type { AdminStats } from './admin-stats.service';

export interface ConsoleData {
  health: AdminHealth;
  stats: AdminStats;
  git: GitStatus;
  waitlist: WaitlistEntry[];
  posts: Publication[];
  changelog: Publication[];
  feedback: FeedbackEntry[];
  audit: AuditEntry[];
  notice?: string;
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:0 auto;padding:1rem;max-width:60rem;background:#fff;color:#1d1d1d}
@media (prefers-color-scheme:dark){body{background:#161616;color:#eee}a{color:#8cb4ff}input,textarea,button{background:#222;color:#eee;border:1px solid #777}}
table{border-collapse:collapse;width:100%;margin-bottom:1rem}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #999;vertical-align:top;overflow-wrap:anywhere}
form.inline{display:inline}label{display:block;margin-top:.5rem}input[type=text],textarea{width:100%;box-sizing:border-box;padding:.4rem;font:inherit}
button{font:inherit;padding:.3rem .8rem;margin-top:.4rem;white-space:nowrap}th{overflow-wrap:normal;hyphens:auto}.notice{border-left:4px solid #2a7;padding:.4rem .8rem}`;

/** GET /admin: the console, plain HTML whose forms work without JavaScript (they post to /admin/console/...). */
export function consolePage(d: ConsoleData): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>Baton admin</title><style>${STYLE}</style></head>
<body><header><h1>Baton admin</h1>${d.notice ? `<p class="notice" role="status">${e(d.notice)}</p>` : ''}</header>
<main>
${healthSection(d)}
${waitlistSection(d.waitlist)}
${postsSection(d.posts)}
${changelogSection(d.changelog)}
${feedbackSection(d.feedback)}
${auditSection(d.audit)}
</main></body></html>`;
}

function healthSection({ health, stats, git }: ConsoleData): string {
  const rows: [string, string][] = [
    ['Status', health.status],
    ['Mode', `${health.mode}, ${health.database}`],
    ['Version', `${health.version} on Node ${health.node_version}`],
    ['Up since', `${health.started_at} (${health.uptime_s} s)`],
    ['Memory', `${health.memory_mb.rss} MB resident`],
    ...Object.entries(health.components).map(([name, c]): [string, string] => [`Component: ${name}`, c.status]),
    ['Workspaces', String(stats.workspaces)],
    ['Accounts', stats.accounts === null ? 'none (self-hosted)' : String(stats.accounts)],
    ['Active sessions', String(stats.active_sessions)],
    ['Tool calls today', String(stats.tool_calls_per_day.at(-1)?.calls ?? 0)],
    ['Push budget', pushBudgetLine(stats.push_budget)],
    ['Git', git.error ? `not available: ${git.error}` : `${git.branch}, ${git.ahead} ahead, ${git.behind} behind`],
  ];
  return `<section aria-labelledby="health"><h2 id="health">Health</h2>
<table><tbody>${rows.map(([k, v]) => `<tr><th scope="row">${e(k)}</th><td>${e(v)}</td></tr>`).join('')}</tbody></table></section>`;
}

function pushBudgetLine(budgets: AdminStats['push_budget']): string {
  if (budgets === null) return 'not counted (self-hosted, or no Redis)';
  if (budgets.length === 0) return 'no push messages this month';
  return budgets
    .slice(0, 5)
    .map((b) => `${b.tenant_id}: ${b.count} (${b.tier})`)
    .join('; ');
}

function waitlistSection(entries: WaitlistEntry[]): string {
  const rows = entries
    .map(
      (w) => `<tr><td>${e(w.email)}</td><td>${e(w.note)}</td><td>${e(w.created_at.slice(0, 10))}</td>
<td><form class="inline" method="post" action="/admin/console/waitlist/${e(w.id)}/delete"><button type="submit" aria-label="Delete ${e(w.email)}">Delete</button></form></td></tr>`,
    )
    .join('');
  return `<section aria-labelledby="waitlist"><h2 id="waitlist">Waitlist (${entries.length})</h2>
${entries.length ? `<table><thead><tr><th scope="col">E-mail</th><th scope="col">Note</th><th scope="col">Joined</th><th scope="col">Action</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>Nobody is waiting.</p>'}</section>`;
}

function publicationRows(items: Publication[], base: string): string {
  return items
    .map(
      (p) => `<tr><td>${e(p.title)}${p.slug ? ` <code>${e(p.slug)}</code>` : ''}</td><td>${p.published ? `published ${e(p.published_at!.slice(0, 10))}` : 'draft'}</td>
<td><form class="inline" method="post" action="${base}/${e(p.id)}/${p.published ? 'unpublish' : 'publish'}"><button type="submit" aria-label="${p.published ? 'Unpublish' : 'Publish'} ${e(p.title)}">${p.published ? 'Unpublish' : 'Publish'}</button></form>
<form class="inline" method="post" action="${base}/${e(p.id)}/delete"><button type="submit" aria-label="Delete ${e(p.title)}">Delete</button></form></td></tr>`,
    )
    .join('');
}

function writeForm(id: string, action: string, withSlug: boolean): string {
  return `<form method="post" action="${action}">
${withSlug ? `<label for="${id}-slug">Slug</label><input type="text" id="${id}-slug" name="slug" required pattern="[a-z0-9]+(-[a-z0-9]+)*" maxlength="100">` : ''}
<label for="${id}-title">Title</label><input type="text" id="${id}-title" name="title" required maxlength="200">
<label for="${id}-body">Body (Markdown)</label><textarea id="${id}-body" name="body" rows="6" required></textarea>
<label><input type="checkbox" name="published"> Publish now</label>
<button type="submit">Save</button></form>`;
}

function postsSection(posts: Publication[]): string {
  const table = posts.length
    ? `<table><thead><tr><th scope="col">Post</th><th scope="col">State</th><th scope="col">Actions</th></tr></thead><tbody>${publicationRows(posts, '/admin/console/blog')}</tbody></table>`
    : '<p>No posts yet.</p>';
  return `<section aria-labelledby="blog"><h2 id="blog">Blog</h2>${table}<h3>New post</h3>${writeForm('post', '/admin/console/blog', true)}</section>`;
}

function changelogSection(entries: Publication[]): string {
  const table = entries.length
    ? `<table><thead><tr><th scope="col">Entry</th><th scope="col">State</th><th scope="col">Actions</th></tr></thead><tbody>${publicationRows(entries, '/admin/console/changelog')}</tbody></table>`
    : '<p>No entries yet.</p>';
  return `<section aria-labelledby="changelog"><h2 id="changelog">Changelog</h2>${table}<h3>New entry</h3>${writeForm('entry', '/admin/console/changelog', false)}</section>`;
}

function feedbackSection(entries: FeedbackEntry[]): string {
  const items = entries
    .map((f) => `<li><p>${e(f.message)}</p><small>${e(f.created_at.slice(0, 16))}${f.email ? `, ${e(f.email)}` : ''}${f.page ? `, on ${e(f.page)}` : ''}</small></li>`)
    .join('');
  return `<section aria-labelledby="feedback"><h2 id="feedback">Feedback</h2>${entries.length ? `<ul>${items}</ul>` : '<p>No feedback yet.</p>'}</section>`;
}

function auditSection(entries: AuditEntry[]): string {
  const rows = entries.map((a) => `<tr><td>${e(a.at.slice(0, 19).replace('T', ' '))}</td><td>${e(a.actor)}</td><td>${e(a.action)}</td><td>${e(a.target ?? '')}</td></tr>`).join('');
  return `<section aria-labelledby="audit"><h2 id="audit">Admin actions</h2>
${entries.length ? `<table><thead><tr><th scope="col">When (UTC)</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">On</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>No admin action yet.</p>'}</section>`;
}
