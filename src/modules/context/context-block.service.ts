import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { EntityManager, IsNull, MoreThan } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { ContextSection, ContextSections } from '../../common/extensions/context-sections';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { ToolText } from '../../mcp/tool-text';
import { Project } from '../projects/project.entity';
import { requireProject } from '../projects/require-project.util';
import { BoardReadCache } from '../push/board-read-cache.service';
import { toProjectView } from '../projects/project.view';
import { Handoff } from '../handoff/handoff.entity';
import { FileLock } from '../sessions/file-lock.entity';
import { FileLocksService } from '../sessions/file-locks.service';
import { Session } from '../sessions/session.entity';
import { toSessionView } from '../sessions/session.view';
import { BRIEF_LINE_CHARS, BRIEF_LINES_PER_SECTION, BRIEF_MAX_BYTES, ContextMode, FULL_LINE_CHARS } from './context.constants';
import { RenderBlock, renderBlocks, RenderResult } from './context-render.util';

export interface BuiltContext extends RenderResult {
  mode: ContextMode;
  cap_bytes: number;
}

/**
 * A project's context block (spec §1 "Dynamic" layer): the sections other
 * modules register (workspace notes and decisions, goal, sprint items, tasks,
 * pinned decisions, active sessions), in their order, bounded in size.
 */
@Injectable()
export class ContextBlockService {
  constructor(
    private readonly db: TenantDb,
    private readonly sections: ContextSections,
    private readonly locks: FileLocksService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly board: BoardReadCache,
  ) {}

  /** The block, inside the caller's transaction. `capBytes` lowers the cap (never raises it). */
  async build(m: EntityManager, project: Project, mode: ContextMode = 'full', capBytes?: number): Promise<BuiltContext> {
    return this.render(project, await this.sections.collect(m, project.id), mode, capBytes);
  }

  /** The sections as collected, for callers that render them under their own budget (handoffs). */
  collect(m: EntityManager, projectId: string): Promise<ContextSection[]> {
    return this.sections.collect(m, projectId);
  }

  render(project: Project, sections: ContextSection[], mode: ContextMode = 'full', capBytes?: number): BuiltContext {
    const cap = Math.min(capBytes ?? Number.MAX_SAFE_INTEGER, mode === 'brief' ? Math.min(BRIEF_MAX_BYTES, this.config.contextBlockMaxBytes) : this.config.contextBlockMaxBytes);
    const rendered = renderBlocks(sections.map(toBlock), {
      capBytes: cap,
      maxLineChars: mode === 'brief' ? BRIEF_LINE_CHARS : FULL_LINE_CHARS,
      maxLinesPerBlock: mode === 'brief' ? BRIEF_LINES_PER_SECTION : undefined,
      header: [`# Baton context: ${project.name}`],
      emptyText: 'Nothing is recorded for this project yet: no goal, sprint items, tasks, decisions or active sessions.',
    });
    return { ...rendered, mode, cap_bytes: cap };
  }

  /** GET .../context-block: the bare text. */
  async text(projectId: string, mode: ContextMode = 'full'): Promise<string> {
    return (await this.forProject(projectId, mode)).built.text;
  }

  /** MCP get_context_block: the text wrapped in a tag naming the project and the mode. */
  async wrapped(projectId: string, mode: ContextMode = 'full'): Promise<ToolText> {
    const { project, built } = await this.forProject(projectId, mode);
    return new ToolText(`<baton-context project="${escapeAttribute(project.name)}" mode="${mode}">\n${built.text}</baton-context>\n`);
  }

  /** GET .../context: what a newcomer (person or assistant) needs to start on the project. */
  async onboarding(projectId: string, mode: ContextMode = 'full') {
    const { project, built, sessions } = await this.forProject(projectId, mode);
    const fileLocks = await this.locks.list(projectId);
    return {
      project: toProjectView(project),
      mode,
      context_block: built.text,
      bytes: built.bytes,
      cap_bytes: built.cap_bytes,
      truncated: built.truncated,
      sections: built.blocks.map((b) => ({ key: b.key, title: b.title, lines: b.lines, total: b.total, omitted: b.omitted })),
      active_sessions: sessions.map(toSessionView),
      file_locks: fileLocks,
      next_steps: [
        `Start a session with start_session (POST /projects/${project.id}/start-session): it answers your session_id, file warnings and this context.`,
        'Claim a file with claim_file before editing it; a claim held by another session is refused with the holder named.',
        `Generate a handoff with generate_handoff (POST /projects/${project.id}/handoff) before you stop.`,
      ],
    };
  }

  /** SHA-256 of the board: every section but the volatile list of active sessions. */
  static boardHash(sections: ContextSection[]): string {
    // Who is active, which handoff waits and which questions are open are not the board: a handoff must not diverge from itself.
    const board = sections.filter((s) => !OFF_BOARD.has(s.key)).map((s) => [s.key, s.title, s.lines]);
    return createHash('sha256').update(JSON.stringify(board)).digest('hex');
  }

  /** The project, its block and its active sessions: the board read, kept between writes (BoardReadCache). */
  private forProject(projectId: string, mode: ContextMode) {
    return this.board.read(
      `context-block:${projectId}:${mode}`,
      () => this.forProjectNow(projectId, mode),
      (read) => read.changesAt,
    );
  }

  private async forProjectNow(projectId: string, mode: ContextMode) {
    return this.db.transaction(async (m) => {
      const project = await requireProject(m, projectId);
      const built = await this.build(m, project, mode);
      const sessions = await m.find(Session, { where: { project_id: projectId, status: 'active' }, order: { last_seen: 'DESC', id: 'ASC' } });
      return { project, built, sessions, changesAt: await changesAt(m, projectId) };
    });
  }
}

/**
 * When the block changes with no write: the next file lock to lapse, or the
 * waiting handoff's expiry (both leave the block then). A cached block is not
 * served past it.
 */
async function changesAt(m: EntityManager, projectId: string): Promise<Date | null> {
  const now = new Date();
  const lock = await m.findOne(FileLock, { where: { project_id: projectId, expires_at: MoreThan(now) }, order: { expires_at: 'ASC' } });
  const handoff = await m.findOne(Handoff, { where: { project_id: projectId, consumed_at: IsNull() }, order: { created_at: 'DESC', id: 'DESC' } });
  const times = [lock?.expires_at, handoff && handoff.expires_at > now ? handoff.expires_at : undefined].filter((t): t is Date => t instanceof Date);
  return times.length ? new Date(Math.min(...times.map((t) => t.getTime()))) : null;
}

/** Sections that are not the board a handoff is checked against. */
const OFF_BOARD = new Set(['sessions', 'handoff', 'hitl']);

function toBlock(section: ContextSection): RenderBlock {
  return { key: section.key, title: section.title, lines: section.lines, style: 'list', whole: section.whole };
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
