import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import { EntityManager } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { isUniqueViolation } from '../../common/errors/db-errors';
import { toErrorResponse } from '../../common/errors/error-response';
import { validateInput } from '../../common/validation/validate-input';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { StartSessionAnswer, StartSessionService } from '../context/start-session.service';
import { Project } from '../projects/project.entity';
import { projectNameKey } from '../projects/project-name.util';
import { ProjectError } from '../projects/projects.errors';
import { requireProject } from '../projects/require-project.util';
import { FileLock } from '../sessions/file-lock.entity';
import { Session } from '../sessions/session.entity';
import { SessionsService } from '../sessions/sessions.service';
import { SessionError } from '../sessions/sessions.errors';
import { HookInputDto } from './dto/hook-input.dto';
import { HookQueryDto } from './dto/hook-query.dto';
import { HookDiagnosticsService, HookRecord } from './hook-diagnostics.service';
import { HookSession } from './hook-session.entity';
import { HOOK_CONTEXT_MAX_BYTES, HOOK_INPUT_FIELDS, HOOK_PREAMBLE_MAX_BYTES } from './hooks.constants';
import { HookError } from './hooks.errors';

/** The answer Claude Code's SessionStart hook expects: the context goes in as additional context. */
export interface SessionStartHookOutput {
  hookSpecificOutput: { hookEventName: 'SessionStart'; additionalContext: string };
}

/** Common hook output fields only: a Stop or SessionEnd hook is never blocked by Baton. */
export interface StopHookOutput {
  continue: true;
  suppressOutput: true;
  systemMessage: string;
}

const WARNINGS_MAX_BYTES = 2_000;

/**
 * An assistant's lifecycle hooks (spec §4 "Remote MCP and agent interfaces").
 * SessionStart starts (or, for the same assistant session, resumes) a Baton
 * session and answers the context block; Stop checkpoints by closing the
 * session, which releases its file locks. Every call is recorded for
 * diagnostics, refused ones included.
 */
@Injectable()
export class HooksService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly starts: StartSessionService,
    private readonly sessions: SessionsService,
    private readonly diagnostics: HookDiagnosticsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async sessionStart(query: HookQueryDto, raw: unknown): Promise<SessionStartHookOutput> {
    const call: HookRecord = { event: 'session-start', outcome: 'error', detail: '', project_id: null, session_id: null, assistant_session_id: null, source: null };
    try {
      const input = await readHookInput(raw, '/hooks/session-start', ['SessionStart']);
      call.assistant_session_id = input.session_id ?? null;
      call.source = input.source ?? null;
      const project = await this.db.transaction((m) => this.resolveProject(m, query, input.cwd));
      call.project_id = project.id;
      const options = { contextCapBytes: HOOK_CONTEXT_MAX_BYTES - HOOK_PREAMBLE_MAX_BYTES };
      const known = input.session_id ? await this.db.transaction((m) => this.liveMapping(m, project.id, input.session_id as string)) : null;
      const answer = known ? await this.starts.resume(known, options) : await this.starts.start(project.id, {}, 'interactive', options);
      if (input.session_id && !known) await this.remember(project.id, input.session_id, answer.session_id);
      call.session_id = answer.session_id;
      call.outcome = 'ok';
      call.detail = `${answer.resumed ? 'resumed' : 'started'} session ${answer.session.name} in project ${project.name}; ${answer.file_warnings.length} file warning(s)`;
      return { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: additionalContext(answer) } };
    } catch (error) {
      call.detail = toErrorResponse(error).body.detail;
      throw error;
    } finally {
      await this.diagnostics.record(call);
    }
  }

  async stop(query: HookQueryDto, raw: unknown): Promise<StopHookOutput> {
    const call: HookRecord = { event: 'stop', outcome: 'error', detail: '', project_id: null, session_id: null, assistant_session_id: null, source: null };
    try {
      const input = await readHookInput(raw, '/hooks/stop', ['Stop', 'SessionEnd']);
      call.assistant_session_id = input.session_id ?? null;
      call.source = input.reason ?? input.hook_event_name ?? null;
      const { session, locks } = await this.db.transaction(async (m) => {
        const found = await this.sessionToStop(m, query, input);
        return { session: found, locks: await m.count(FileLock, { where: { session_id: found.id } }) };
      });
      call.project_id = session.project_id;
      call.session_id = session.id;
      const closed = await this.sessions.close(session.id);
      call.outcome = 'ok';
      call.detail = closed.closed_now
        ? `checkpointed session ${session.name}: closed, ${locks} file lock(s) released`
        : `session ${session.name} was already closed (${closed.session.close_reason ?? 'closed'})`;
      return { continue: true, suppressOutput: true, systemMessage: `Baton: ${call.detail}` };
    } catch (error) {
      call.detail = toErrorResponse(error).body.detail;
      throw error;
    } finally {
      await this.diagnostics.record(call);
    }
  }

  /** The project named by the hook URL, or by the last segment of the assistant's working directory. */
  private async resolveProject(m: EntityManager, query: HookQueryDto, cwd?: string): Promise<Project> {
    if (query.project_id) return requireProject(m, query.project_id);
    const name = query.project ?? (cwd ? basename(cwd.replace(/[\\/]+$/, '')) : '');
    if (!name) throw HookError.projectNotNamed();
    const project = await m.findOneBy(Project, { name_key: projectNameKey(name) });
    if (!project) throw ProjectError.notFound(name);
    return project;
  }

  /** The Baton session already started for this assistant session, if it is still active. */
  private async liveMapping(m: EntityManager, projectId: string, assistantSessionId: string): Promise<string | null> {
    const mapping = await m.findOneBy(HookSession, { project_id: projectId, assistant_session_id: assistantSessionId });
    if (!mapping) return null;
    const session = await m.findOneBy(Session, { id: mapping.session_id });
    return session?.status === 'active' ? session.id : null;
  }

  private async remember(projectId: string, assistantSessionId: string, sessionId: string): Promise<void> {
    const now = this.clock.now();
    await this.db.transaction(async (m) => {
      const existing = await m.findOneBy(HookSession, { project_id: projectId, assistant_session_id: assistantSessionId });
      if (existing) {
        await m.update(HookSession, { id: existing.id }, { session_id: sessionId, updated_at: now });
        return;
      }
      try {
        await m.insert(HookSession, { id: randomUUID(), project_id: projectId, assistant_session_id: assistantSessionId, session_id: sessionId, created_at: now, updated_at: now });
      } catch (error) {
        // Two SessionStart calls for one assistant session at once: the first mapping stands.
        if (!isUniqueViolation(error)) throw error;
      }
    });
  }

  private async sessionToStop(m: EntityManager, query: HookQueryDto, input: HookInputDto): Promise<Session> {
    const project = query.project_id || query.project ? await this.resolveProject(m, query) : null;
    if (query.baton_session_id) {
      const session = await m.findOneBy(Session, { id: query.baton_session_id });
      if (!session || (project && session.project_id !== project.id)) throw SessionError.notFound(query.baton_session_id);
      return session;
    }
    if (!input.session_id) throw HookError.sessionNotNamed();
    const mapping = await m.findOne(HookSession, {
      where: { assistant_session_id: input.session_id, ...(project ? { project_id: project.id } : {}) },
      order: { updated_at: 'DESC', id: 'ASC' },
    });
    const session = mapping ? await m.findOneBy(Session, { id: mapping.session_id }) : null;
    if (!session) throw HookError.unknownAssistantSession(input.session_id);
    return session;
  }
}

/** Reads the fields Baton uses from an assistant's hook input; refuses a body that is not an object or names another event. */
async function readHookInput(raw: unknown, route: string, events: string[]): Promise<HookInputDto> {
  const picked =
    raw !== null && typeof raw === 'object' && !Array.isArray(raw)
      ? Object.fromEntries(HOOK_INPUT_FIELDS.filter((k) => Object.prototype.hasOwnProperty.call(raw, k)).map((k) => [k, (raw as Record<string, unknown>)[k]]))
      : raw;
  const input = await validateInput(HookInputDto, picked, 'request body');
  if (input.hook_event_name !== undefined && !events.includes(input.hook_event_name)) throw HookError.wrongEvent(route, input.hook_event_name, events);
  return input;
}

/** The session line, the file warnings (bounded), then the context block. */
function additionalContext(answer: StartSessionAnswer): string {
  const lines = [
    `Baton: you are session ${answer.session.name} (session_id ${answer.session_id}) in this project${answer.resumed ? ' (resumed)' : ''}. Pass this session_id to claim_file before editing a file, to add_session_note, and to generate_handoff before you stop.`,
  ];
  if (answer.file_warnings.length > 0) {
    lines.push('Files other live sessions hold (claim a file before editing it):');
    let used = 0;
    const shown = answer.file_warnings.filter((w) => (used += Buffer.byteLength(w, 'utf8') + 3) <= WARNINGS_MAX_BYTES);
    lines.push(...shown.map((w) => `- ${w}`));
    if (shown.length < answer.file_warnings.length) lines.push(`- … ${answer.file_warnings.length - shown.length} more (list_file_locks)`);
  }
  return `${lines.join('\n')}\n\n${answer.context_block}`;
}
