import { ContextSection } from '../../common/extensions/context-sections';
import { RenderBlock, renderBlocks } from '../context/context-render.util';
import { ProjectNoteLine } from '../context/session-notes.service';
import { HANDOFF_BUDGETS, HANDOFF_LINE_CHARS, HandoffMode } from './handoff.constants';
import { renderFrontMatter } from './front-matter.util';
import { CorrectionView } from './handoff-corrections.service';
import { sha256 } from './handoff-ledger.service';

/** Everything a handoff is made of, gathered by the service in one transaction. */
export interface HandoffMaterial {
  projectId: string;
  projectName: string;
  mode: HandoffMode;
  /** null for a preview that is not recorded (GET .../handoff/planner). */
  handoffId: string | null;
  token: string | null;
  sessionId: string | null;
  sessionName: string | null;
  generatedAt: Date;
  expiresAt: Date | null;
  /** When the project's previous handoff was generated. */
  since: Date | null;
  summary?: string;
  /** Written by Baton when a session closed without one: `automatic: true` in the front matter. */
  automatic?: boolean;
  queuedGoal: string | null;
  sections: ContextSection[];
  notes: ProjectNoteLine[];
  corrections: CorrectionView[];
  /** Sessions started and ended since the previous handoff. */
  activity: string[];
  locks: string[];
  changedFiles: string[];
  repoWarning?: string;
  boardSha256: string;
  /** StartSessionExtras: fields other modules add to the front matter. */
  extras: Record<string, unknown>;
}

export interface HandoffDocument {
  content: string;
  bodySha256: string;
  bytes: number;
  budgetBytes: number;
  truncated: boolean;
}

/** The largest JSON one extra may take in the front matter. */
const EXTRA_MAX_BYTES = 4096;
const OWN_FIELDS = new Set([
  'baton_handoff',
  'handoff_id',
  'token',
  'project_id',
  'project',
  'mode',
  'session_id',
  'generated_at',
  'expires_at',
  'since',
  'board_sha256',
  'body_sha256',
  'queued_goal_included',
  'changed_files_count',
  'automatic',
]);

/**
 * Writes a handoff: front matter (what it is, what it was generated against,
 * the extras), then the blocks of its mode, within the mode's byte budget.
 */
export function buildHandoff(mat: HandoffMaterial): HandoffDocument {
  const budget = HANDOFF_BUDGETS[mat.mode];
  const frontMatter = (bodySha: string) => renderFrontMatter([...ownFields(mat, bodySha), ...extraFields(mat.extras)]);
  const placeholder = frontMatter('0'.repeat(64));
  const rendered = renderBlocks(blocksFor(mat), {
    capBytes: Math.max(0, budget - Buffer.byteLength(placeholder, 'utf8')),
    maxLineChars: HANDOFF_LINE_CHARS[mat.mode],
    header: [
      `# Handoff: ${mat.projectName} (${mat.mode})`,
      `Generated ${mat.generatedAt.toISOString()}${mat.sessionName ? ` by session ${mat.sessionName}` : ''}${mat.since ? `; changes since the previous handoff of ${mat.since.toISOString()}` : ''}.`,
    ],
    emptyText: 'Nothing is recorded for this project yet.',
  });
  const bodySha256 = sha256(rendered.text);
  const content = frontMatter(bodySha256) + rendered.text;
  return { content, bodySha256, bytes: Buffer.byteLength(content, 'utf8'), budgetBytes: budget, truncated: rendered.truncated };
}

function ownFields(mat: HandoffMaterial, bodySha: string): [string, unknown][] {
  return [
    ['baton_handoff', 1],
    ['handoff_id', mat.handoffId],
    ['token', mat.token],
    ['project_id', mat.projectId],
    ['project', mat.projectName],
    ['mode', mat.mode],
    ['session_id', mat.sessionId],
    ['generated_at', mat.generatedAt.toISOString()],
    ['expires_at', mat.expiresAt ? mat.expiresAt.toISOString() : null],
    ['since', mat.since ? mat.since.toISOString() : null],
    ['board_sha256', mat.boardSha256],
    ['body_sha256', bodySha],
    ['queued_goal_included', mat.queuedGoal !== null],
    ['changed_files_count', mat.changedFiles.length],
    ...(mat.automatic ? [['automatic', true] as [string, unknown]] : []),
  ];
}

function extraFields(extras: Record<string, unknown>): [string, unknown][] {
  return Object.keys(extras)
    .sort()
    .map((name): [string, unknown] => {
      const value = extras[name];
      const size = Buffer.byteLength(JSON.stringify(value ?? null), 'utf8');
      return [OWN_FIELDS.has(name) ? `extra_${name}` : name, size > EXTRA_MAX_BYTES ? { omitted: `${size} bytes: too large for the front matter` } : value];
    });
}

function blocksFor(mat: HandoffMaterial): RenderBlock[] {
  const width = HANDOFF_LINE_CHARS[mat.mode];
  const summaryTitle = mat.automatic
    ? `Written by Baton when session ${mat.sessionName ?? 'unknown'} closed without a handoff`
    : `Summary from ${mat.sessionName ?? 'the previous session'}`;
  const summary = mat.summary ? text('summary', summaryTitle, mat.summary, width) : null;
  const queued = mat.queuedGoal ? text('queued_goal', 'Goal for this session (queued)', mat.queuedGoal, width) : null;
  const sections = mat.sections.map((s): RenderBlock => ({ key: s.key, title: s.title, lines: s.lines }));
  const notes = list(
    'session_notes',
    'Session notes',
    mat.notes.map((n) => `${n.note.created_at} ${n.session_name}: ${n.note.body}`),
  );
  const corrections = list(
    'corrections',
    'Corrections',
    mat.corrections.map((c) => `${c.created_at}${c.session_id ? ` for session ${c.session_id}` : ''}: ${c.summary} — ${c.content}`),
  );
  const activity = list('activity', 'Sessions since the previous handoff', mat.activity);
  const locks = list('file_locks', 'File locks', mat.locks);
  const changed = list('changed_files', 'Files changed in the last three commits', [...(mat.repoWarning ? [mat.repoWarning] : []), ...mat.changedFiles]);
  const howTo = list('how_to_start', 'How to start', [
    `Call start_session with project_id ${mat.projectId}${mat.token ? ` and handoff_token ${mat.token}` : ''}: it answers your session_id, file warnings and the current context.`,
    'Claim each file with claim_file before you edit it; a file another live session holds is refused with the holder named.',
    ...(mat.handoffId ? [`Check that this handoff is still current with accept_handoff (handoff_id ${mat.handoffId}).`] : []),
    'Keep notes for whoever comes next with add_session_note, and generate a handoff with generate_handoff before you stop.',
  ]);
  const byMode: Record<HandoffMode, (RenderBlock | null)[]> = {
    goal: [summary, queued, ...sections, notes],
    starter: [howTo, summary, queued, ...sections, locks],
    delta: [summary, queued, activity, notes, corrections, changed, ...sections],
    planner: [queued, ...sections, summary, locks, changed, corrections, notes],
    full: [summary, queued, ...sections, notes, corrections, activity, locks, changed],
  };
  return byMode[mat.mode].filter((b): b is RenderBlock => b !== null && b.lines.length > 0);
}

function list(key: string, title: string, lines: string[]): RenderBlock {
  return { key, title, lines, style: 'list' };
}

/** A paragraph block: kept as written, long lines wrapped rather than cut. */
function text(key: string, title: string, body: string, width: number): RenderBlock {
  const lines = body
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .flatMap((line) => {
      const chars = Array.from(line);
      if (chars.length <= width) return [line];
      const parts: string[] = [];
      for (let i = 0; i < chars.length; i += width) parts.push(chars.slice(i, i + width).join(''));
      return parts;
    });
  return { key, title, lines, style: 'text' };
}
