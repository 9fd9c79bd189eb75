import { Inject, Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EntityManager, MoreThan } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { RequestError } from '../../common/errors/request-error';
import { HandoffHooks } from '../../common/extensions/handoff-hooks';
import { StartSessionExtras } from '../../common/extensions/start-session-extras';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { ToolRegistry } from '../../mcp/tool-registry.service';
import { ContextBlockService } from '../context/context-block.service';
import { SessionNotesService } from '../context/session-notes.service';
import { Project } from '../projects/project.entity';
import { requireProject } from '../projects/require-project.util';
import { ProjectSettingsService } from '../project-settings/project-settings.service';
import { FileLocksService } from '../sessions/file-locks.service';
import { Session } from '../sessions/session.entity';
import { AcceptHandoffDto } from './dto/accept-handoff.dto';
import { GenerateHandoffDto } from './dto/generate-handoff.dto';
import { changedFilesInLastCommits, ChangedFiles } from './git-changes.util';
import { HandoffMode } from './handoff.constants';
import { Handoff } from './handoff.entity';
import { HandoffCorrectionsService, requireSessionOf, toCorrectionView } from './handoff-corrections.service';
import { buildHandoff, HandoffMaterial } from './handoff-document.util';
import { HandoffLedger, HandoffMeta, HandoffProblem, HandoffProblemCode, sha256, toHandoffMeta } from './handoff-ledger.service';
import { parseFrontMatter } from './front-matter.util';
import { QueuedSessionsService } from './queued-sessions.service';

export interface HandoffAnswer {
  /** Self-hosted: where the file was written. Hosted: a relative name to save the content under (nothing is written on the server). */
  file_path: string;
  content: string;
  handoff_id: string;
  token: string;
  mode: HandoffMode;
  bytes: number;
  budget_bytes: number;
  truncated: boolean;
  expires_at: string;
  queued_goal_included: boolean;
  changed_files: string[];
}

export interface AcceptAnswer {
  status: 'ok' | HandoffProblemCode;
  valid: boolean;
  problems: HandoffProblem[];
  handoff: HandoffMeta | null;
}

const NOTES_LIMIT: Record<HandoffMode, number> = { goal: 20, starter: 0, delta: 100, planner: 20, full: 200 };
const CORRECTIONS_LIMIT: Record<HandoffMode, number> = { goal: 0, starter: 0, delta: 20, planner: 5, full: 20 };
const ACTIVITY_LIMIT = 100;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * Handoffs (spec §4 Handoff): a document for whoever works on the project
 * next, recorded so it can be checked later (accept_handoff) and started
 * from once (start_session with its token).
 */
@Injectable()
export class HandoffService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly blocks: ContextBlockService,
    private readonly notes: SessionNotesService,
    private readonly locks: FileLocksService,
    private readonly corrections: HandoffCorrectionsService,
    private readonly queue: QueuedSessionsService,
    private readonly ledger: HandoffLedger,
    private readonly settings: ProjectSettingsService,
    private readonly hooks: HandoffHooks,
    private readonly extras: StartSessionExtras,
    private readonly tools: ToolRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async generate(projectId: string, input: GenerateHandoffDto): Promise<HandoffAnswer> {
    const changes = await this.recentChanges(projectId);
    return this.db.transaction(async (m) => {
      const project = await requireProject(m, projectId);
      const session = input.session_id ? await requireSessionOf(m, projectId, input.session_id) : null;
      // Hooks first (the sprint module fills touches_files), so the sections show their result.
      await this.hooks.runAll(m, { projectId, changedFiles: changes.files });
      const previous = await m.findOne(Handoff, { where: { project_id: projectId }, order: { created_at: 'DESC', id: 'DESC' } });
      const mode: HandoffMode = input.mode ?? (previous ? 'delta' : 'goal');
      const now = this.clock.now();
      const id = randomUUID();
      const token = newToken();
      const expiresAt = new Date(now.getTime() + this.config.handoffTtlS * 1000);
      const material = await this.gather(m, project, mode, session, previous?.created_at ?? null, now, changes);
      const queuedGoal = await this.queue.take(m, projectId);
      const doc = buildHandoff({ ...material, handoffId: id, token, expiresAt, summary: input.summary, queuedGoal });
      const fileName = `${now.toISOString().replace(/[:.]/g, '-')}-${mode}-${id.slice(0, 8)}.md`;
      await m.insert(Handoff, {
        id,
        project_id: projectId,
        session_id: session?.id ?? null,
        mode,
        token,
        file_name: fileName,
        content: doc.content,
        body_sha256: doc.bodySha256,
        board_sha256: material.boardSha256,
        tools_sha256: this.toolsHash(),
        bytes: doc.bytes,
        created_at: now,
        expires_at: expiresAt,
        consumed_at: null,
        consumed_by_session_id: null,
      });
      // Written inside the transaction: a file that cannot be written leaves no record behind.
      const filePath = await this.store(projectId, fileName, doc.content);
      return {
        file_path: filePath,
        content: doc.content,
        handoff_id: id,
        token,
        mode,
        bytes: doc.bytes,
        budget_bytes: doc.budgetBytes,
        truncated: doc.truncated,
        expires_at: expiresAt.toISOString(),
        queued_goal_included: queuedGoal !== null,
        changed_files: changes.files,
      };
    });
  }

  /** A planner handoff as it would be now: nothing recorded, no queued goal taken, no hooks run. */
  async planner(projectId: string) {
    return this.db.transaction(async (m) => {
      const project = await requireProject(m, projectId);
      const previous = await m.findOne(Handoff, { where: { project_id: projectId }, order: { created_at: 'DESC', id: 'DESC' } });
      const material = await this.gather(m, project, 'planner', null, previous?.created_at ?? null, this.clock.now(), { files: [] });
      const doc = buildHandoff({ ...material, handoffId: null, token: null, expiresAt: null, queuedGoal: null });
      return { mode: 'planner' as const, content: doc.content, bytes: doc.bytes, budget_bytes: doc.budgetBytes, truncated: doc.truncated };
    });
  }

  /** Whether a handoff is still good to work from. Read-only: nothing is consumed or changed. */
  async accept(projectId: string, input: AcceptHandoffDto): Promise<AcceptAnswer> {
    if (!input.handoff_id && !input.token && input.content === undefined) {
      throw RequestError.invalidInput('give handoff_id, token or content (the handoff as received)');
    }
    const fromContent = input.content !== undefined ? parseFrontMatter(input.content)?.fields.handoff_id : undefined;
    const handoffId = input.handoff_id ?? (typeof fromContent === 'string' && isUuid(fromContent) ? fromContent : undefined);
    const ref = input.handoff_id ?? input.token ?? handoffId ?? 'in the content given';
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      const handoff = handoffId || input.token ? await this.ledger.find(m, { handoff_id: handoffId, token: handoffId ? undefined : input.token }) : null;
      const problems = this.ledger.hardProblems(handoff, projectId, ref, input.content);
      const own = handoff !== null && handoff.project_id === projectId;
      if (own) {
        const newer = await m.findOne(Handoff, { where: { project_id: projectId, created_at: MoreThan(handoff.created_at) }, order: { created_at: 'ASC' } });
        if (newer) problems.push({ code: 'stale', detail: `a newer handoff (${newer.id}) was generated at ${newer.created_at.toISOString()}` });
        if (ContextBlockService.boardHash(await this.blocks.collect(m, projectId)) !== handoff.board_sha256) {
          problems.push({ code: 'board_diverged', detail: "the project's goal, sprint items, tasks or decisions changed since the handoff was generated" });
        }
        if (this.toolsHash() !== handoff.tools_sha256) problems.push({ code: 'tools_drifted', detail: 'the MCP tools changed since the handoff was generated' });
      }
      return { status: problems[0]?.code ?? 'ok', valid: problems.length === 0, problems, handoff: own ? toHandoffMeta(handoff) : null };
    });
  }

  private async gather(m: EntityManager, project: Project, mode: HandoffMode, session: Session | null, since: Date | null, now: Date, changes: ChangedFiles) {
    const sections = await this.blocks.collect(m, project.id);
    const notesLimit = NOTES_LIMIT[mode];
    // A goal handoff carries the handing-off session's own notes; the others, the project's.
    const notes =
      notesLimit === 0 || (mode === 'goal' && !session)
        ? []
        : await this.notes.ofProject(m, project.id, { sessionId: mode === 'goal' ? session?.id : undefined, since: mode === 'delta' ? (since ?? undefined) : undefined, limit: notesLimit });
    const correctionsLimit = CORRECTIONS_LIMIT[mode];
    const corrections = correctionsLimit === 0 ? [] : await this.corrections.recent(m, project.id, correctionsLimit, mode === 'delta' ? (since ?? undefined) : undefined);
    const material: Omit<HandoffMaterial, 'handoffId' | 'token' | 'expiresAt' | 'queuedGoal'> = {
      projectId: project.id,
      projectName: project.name,
      mode,
      sessionId: session?.id ?? null,
      sessionName: session?.name ?? null,
      generatedAt: now,
      since,
      sections,
      notes,
      corrections: corrections.map(toCorrectionView),
      activity: mode === 'delta' || mode === 'full' ? await this.activity(m, project.id, since) : [],
      locks: mode === 'starter' || mode === 'planner' || mode === 'full' ? await this.locks.warningsFor(m, project.id) : [],
      changedFiles: changes.files,
      repoWarning: changes.warning,
      boardSha256: ContextBlockService.boardHash(sections),
      extras: await this.extras.collect(m, { projectId: project.id, sessionId: session?.id, humanId: session?.human_id }),
    };
    return material;
  }

  /** Sessions started or ended since the previous handoff, newest first. */
  private async activity(m: EntityManager, projectId: string, since: Date | null): Promise<string[]> {
    const started = await m.find(Session, {
      where: { project_id: projectId, ...(since ? { created_at: MoreThan(since) } : {}) },
      order: { created_at: 'DESC', id: 'ASC' },
      take: ACTIVITY_LIMIT,
    });
    const ended = await m.find(Session, {
      where: { project_id: projectId, status: 'closed', ...(since ? { closed_at: MoreThan(since) } : {}) },
      order: { closed_at: 'DESC', id: 'ASC' },
      take: ACTIVITY_LIMIT,
    });
    const events = [
      ...started.map((s) => ({ at: s.created_at, line: `${s.created_at.toISOString()} ${s.name} (${s.kind}, ${s.human_id}) started` })),
      ...ended.map((s) => ({ at: s.closed_at as Date, line: `${(s.closed_at as Date).toISOString()} ${s.name} ${s.close_reason === 'swept' ? 'went silent and was closed' : 'closed'}` })),
    ];
    return events.sort((a, b) => b.at.getTime() - a.at.getTime() || a.line.localeCompare(b.line)).map((e) => e.line);
  }

  /** Files changed in the last three commits, when the project names a repository and Baton runs on that machine. */
  private async recentChanges(projectId: string): Promise<ChangedFiles> {
    const repoPath = await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      return (await this.settings.read(m, projectId)).executor_config.repo_path;
    });
    if (!repoPath || this.config.isHosted) return { files: [] };
    return changedFilesInLastCommits(repoPath);
  }

  private async store(projectId: string, fileName: string, content: string): Promise<string> {
    // Hosted: the server's disk is no place for tenant documents, and its paths are not the client's business.
    if (this.config.isHosted) return `.baton/handoffs/${fileName}`;
    const dir = join(this.config.dataDir, 'handoffs', projectId);
    await mkdir(dir, { recursive: true });
    const path = join(dir, fileName);
    await writeFile(path, content, { encoding: 'utf8', flag: 'wx' });
    return path;
  }

  private toolsHash(): string {
    return sha256(JSON.stringify(this.tools.list().map((t) => [t.name, t.inputSchema])));
  }
}

function newToken(): string {
  const bytes = randomBytes(16);
  let token = 'ho_';
  for (let i = 0; i < 16; i++) token += BASE32[bytes[i] & 31];
  return token;
}

function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
