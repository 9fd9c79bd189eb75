import { escapeHtml } from '../common/http/html-page';
import type { OpenApiDocument } from './openapi-builder';

interface PageOperation {
  summary?: string;
  description: string;
  tags: string[];
  'x-added-in': string;
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
  requestBody?: { content: Record<string, { schema: unknown }> };
}

/** The browsable reference: every operation by tag, its release, its body and its answers. */
export function renderApiReference(document: OpenApiDocument): string {
  const byTag = new Map<string, string[]>();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(operations)) {
      const op = raw as unknown as PageOperation;
      const rows = byTag.get(op.tags[0]) ?? [];
      rows.push(operationHtml(method, path, op));
      byTag.set(op.tags[0], rows);
    }
  }
  const tags = [...byTag.keys()].sort();
  const index = tags.map((tag) => `<li><a href="#${escapeHtml(tag)}">${escapeHtml(tag)}</a></li>`).join('');
  const sections = tags
    .map(
      (tag) => `<section id="${escapeHtml(tag)}" aria-labelledby="h-${escapeHtml(tag)}"><h2 id="h-${escapeHtml(tag)}">${escapeHtml(tag)}</h2>${byTag.get(tag)!.join('')}</section>`,
    )
    .join('');
  return `<h1>Baton REST API</h1>
<p>${escapeHtml(document.info.description)} The machine-readable document is <a href="/openapi.json">/openapi.json</a> (OpenAPI ${escapeHtml(document.openapi)}, version ${escapeHtml(document.info.version)}).</p>
<nav aria-label="Groups"><ul class="api-index">${index}</ul></nav>${sections}`;
}

function operationHtml(method: string, path: string, op: PageOperation): string {
  const body = op.requestBody ? schemaDetails('Request body', Object.values(op.requestBody.content)[0]?.schema) : '';
  const answers = Object.entries(op.responses)
    .map(([status, answer]) => {
      const media = answer.content ? Object.keys(answer.content)[0] : '';
      return `<li><code>${escapeHtml(status)}</code> ${escapeHtml(answer.description)}${media ? ` <small>${escapeHtml(media)}</small>` : ''}</li>`;
    })
    .join('');
  const ok = Object.entries(op.responses).find(([status]) => /^2/.test(status))?.[1];
  const okSchema = ok?.content ? schemaDetails('Answer', Object.values(ok.content)[0]?.schema) : '';
  return `<article class="api-op"><h3><code>${escapeHtml(method.toUpperCase())} ${escapeHtml(path)}</code></h3>
<p>${escapeHtml(op.description)}</p>${body}${okSchema}<ul>${answers}</ul></article>`;
}

function schemaDetails(label: string, schema: unknown): string {
  if (!schema || Object.keys(schema).length === 0) return '';
  return `<details><summary>${escapeHtml(label)}</summary><pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre></details>`;
}
