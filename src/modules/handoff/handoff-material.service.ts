import { Injectable } from '@nestjs/common';
import { EntityManager, MoreThan } from 'typeorm';
import { StartSessionExtras } from '../../common/extensions/start-session-extras';
import { ToolRegistry } from '../../mcp/tool-registry.service';
import { ContextBlockService } from '../context/context-block.service';
import { SessionNotesService } from '../context/session-notes.service';
import { Project } from '../projects/project.entity';
import { FileLocksService } from '../sessions/file-locks.service';
import { Session } from '../sessions/session.entity';
import { ChangedFiles } from './git-changes.util';
import { HandoffMode } from './handoff.constants';
import { HandoffCorrectionsService, toCorrectionView } from './handoff-corrections.service';
import { HandoffMaterial } from './handoff-document.util';
import { toolManifestHash } from './tool-manifest.util';

const NOTES_LIMIT: Record<HandoffMode, number> = { goal: 20, starter: 0, delta: 100, planner: 20, full: 200 };
const CORRECTIONS_LIMIT: Record<HandoffMode, number> = { goal: 0, starter: 0, delta: 20, planner: 5, full: 20 };
const ACTIVITY_LIMIT = 100;

export type GatheredMaterial = Omit<HandoffMaterial, 'handoffId' | 'token' | 'expiresAt' | 'queuedGoal'>;

/** Reads what a handoff of a given mode is made of, inside the caller's transaction. */
@Injectable()
export class HandoffMaterialService {
  constructor(
    private readonly blocks: ContextBlockService,
    private readonly notes: SessionNotesService,
    private readonly locks: FileLocksService,
    private readonly corrections: HandoffCorrectionsService,
    private readonly extras: StartSessionExtras,
    private readonly tools: ToolRegistry,
  ) {}

  /** The MCP tools served now, hashed: a handoff records it, accept_handoff compares it. */
  toolsSha256(): string {
    return toolManifestHash(this.tools);
  }

  async gather(m: EntityManager, project: Project, mode: HandoffMode, session: Session | null, since: Date | null, now: Date, changes: ChangedFiles): Promise<GatheredMaterial> {
    const sections = await this.blocks.collect(m, project.id);
    const notesLimit = NOTES_LIMIT[mode];
    // A goal handoff carries the handing-off session's own notes; the others, the project's.
    const notes =
      notesLimit === 0 || (mode === 'goal' && !session)
        ? []
        : await this.notes.ofProject(m, project.id, {
            sessionId: mode === 'goal' ? session?.id : undefined,
            since: mode === 'delta' ? (since ?? undefined) : undefined,
            limit: notesLimit,
          });
    const correctionsLimit = CORRECTIONS_LIMIT[mode];
    const corrections = correctionsLimit === 0 ? [] : await this.corrections.recent(m, project.id, correctionsLimit, mode === 'delta' ? (since ?? undefined) : undefined);
    return {
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
      ...ended.map((s) => ({
        at: s.closed_at as Date,
        line: `${(s.closed_at as Date).toISOString()} ${s.name} ${s.close_reason === 'swept' ? 'went silent and was closed' : 'closed'}`,
      })),
    ];
    return events.sort((a, b) => b.at.getTime() - a.at.getTime() || a.line.localeCompare(b.line)).map((e) => e.line);
  }
}
