import { isUUID } from 'class-validator';
import { toErrorResponse } from '../../common/errors/error-response';
import { ToolRegistry } from '../tool-registry.service';
import { ToolText } from '../tool-text';
import { mcpSdk } from '../sdk';
import { rpcError } from '../tasks/mcp-task-store';

export interface ProjectRef {
  id: string;
  name: string;
}

export interface SessionRef {
  id: string;
  name: string;
  human_id: string;
  last_seen: string;
}

export interface SprintItemRef {
  id: string;
  title: string;
  status: string;
  slug: string;
  claimed_by_session_id: string | null;
}

export interface HitlRef {
  id: string;
  session_id: string;
  question: string;
  urgency: string;
  assigned_to: string;
}

export interface LockRef {
  file_path: string;
  session_id: string;
}

/** The project `ref` names by its id or its name (names compared without case), if any. */
export function projectNamed(projects: ProjectRef[], ref: string): ProjectRef | undefined {
  const wanted = ref.trim().toLowerCase();
  return wanted ? projects.find((p) => p.id === wanted || p.name.toLowerCase() === wanted) : undefined;
}

/**
 * What prompts and completions read, through the read-only tools of the registry: the same
 * services, input rules and tenant scope as a tools/call of the client's (so a prompt never shows
 * what that client could not read), without counting as its calls. A refusal becomes a JSON-RPC
 * InvalidParams error carrying the tool's detail.
 */
export class LiveReads {
  constructor(private readonly registry: ToolRegistry) {}

  projects(): Promise<ProjectRef[]> {
    return this.read<ProjectRef[]>('list_projects', {});
  }

  /** A project named by its id or its name (names compared without case); refused when none is. */
  async project(ref: string): Promise<ProjectRef> {
    const found = projectNamed(await this.projects(), ref);
    if (!found) throw rpcError(mcpSdk().ErrorCode.InvalidParams, `project: no project has the id or name "${ref}"`);
    return found;
  }

  /** The project's active sessions, most recently seen first. */
  sessions(projectId: string): Promise<SessionRef[]> {
    return this.read<SessionRef[]>('list_sessions', { project_id: projectId });
  }

  /** An active session of the project named by its id or its name (the most recently seen of that name). */
  async session(projectId: string, ref: string): Promise<SessionRef> {
    const wanted = ref.trim();
    const sessions = await this.sessions(projectId);
    const found = isUUID(wanted) ? sessions.find((s) => s.id === wanted.toLowerCase()) : sessions.find((s) => s.name.toLowerCase() === wanted.toLowerCase());
    if (!found) throw rpcError(mcpSdk().ErrorCode.InvalidParams, `session: no active session of this project has the id or name "${ref}"`);
    return found;
  }

  contextBlock(projectId: string): Promise<string> {
    return this.read<ToolText>('get_context_block', { project_id: projectId }).then((t) => t.text);
  }

  /** The project's sprint items that are not finished (active: open, claimed, in progress ...). */
  openItems(projectId: string): Promise<SprintItemRef[]> {
    return this.read<SprintItemRef[]>('list_sprint_items', { project_id: projectId, status: 'active', limit: 100 });
  }

  pendingHitl(projectId: string): Promise<HitlRef[]> {
    return this.read<HitlRef[]>('list_hitl_requests', { project_id: projectId });
  }

  locks(projectId: string): Promise<LockRef[]> {
    return this.read<LockRef[]>('list_file_locks', { project_id: projectId });
  }

  private async read<T>(tool: string, args: Record<string, unknown>): Promise<T> {
    const registered = this.registry.get(tool);
    if (!registered) throw new Error(`prompts read the tool ${tool}, which is not registered`);
    try {
      return (await registered.invoke(args)) as T;
    } catch (error) {
      const { body, unexpected } = toErrorResponse(error);
      if (unexpected) throw error;
      throw rpcError(mcpSdk().ErrorCode.InvalidParams, body.detail, body);
    }
  }
}
