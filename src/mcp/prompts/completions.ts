import type { CompleteRequest, CompleteResult } from '@modelcontextprotocol/sdk/types.js';
import { mcpSdk } from '../sdk';
import { rpcError } from '../tasks/mcp-task-store';
import { type LiveReads, projectNamed, type ProjectRef } from './live-reads';
import { workflowPrompt } from './workflow-prompts';

/** The most values one completion answers (the MCP limit). */
const MAX_VALUES = 100;

type Kind = 'project' | 'session' | 'sprint_item';

/**
 * Which argument names complete what, wherever they appear (the workflow prompts' arguments and
 * the `{project_id}`-style variables of resource templates alike).
 */
const KINDS: Readonly<Record<string, Kind>> = {
  project: 'project',
  project_id: 'project',
  session: 'session',
  session_id: 'session',
  session_name: 'session',
  sprint_item: 'sprint_item',
  sprint_item_id: 'sprint_item',
  item_id: 'sprint_item',
};

/**
 * completion/complete: candidates for an argument from what exists in the caller's tenant, read
 * as the client could read them. Projects complete by name and by id; sessions (the project's
 * active ones) by name, or by id for a `session_id`; sprint items (the project's unfinished ones)
 * by id, matched against the id, slug or title typed so far. Sessions and sprint items need the
 * project among the arguments already given (`context.arguments`): without it there is nothing to
 * suggest. Matching ignores case; names before ids; at most 100 values.
 */
export async function complete(reads: LiveReads, params: CompleteRequest['params']): Promise<CompleteResult> {
  if (params.ref.type === 'ref/prompt' && !workflowPrompt(params.ref.name)) {
    throw rpcError(mcpSdk().ErrorCode.InvalidParams, `unknown prompt: ${params.ref.name}`);
  }
  const kind = Object.hasOwn(KINDS, params.argument.name) ? KINDS[params.argument.name] : undefined;
  const typed = params.argument.value.trim().toLowerCase();
  const given = params.context?.arguments ?? {};
  let values: string[] = [];
  if (kind === 'project') {
    const projects = await reads.projects();
    values = [
      ...(params.argument.name === 'project_id' ? [] : projects.filter((p) => p.name.toLowerCase().startsWith(typed)).map((p) => p.name)),
      ...projects.filter((p) => p.id.startsWith(typed)).map((p) => p.id),
    ];
  } else if (kind === 'session') {
    const project = await projectOf(reads, given);
    const sessions = project ? await reads.sessions(project.id) : [];
    values =
      params.argument.name === 'session_id'
        ? sessions.filter((s) => s.id.startsWith(typed)).map((s) => s.id)
        : [...new Set(sessions.filter((s) => s.name.toLowerCase().startsWith(typed)).map((s) => s.name))];
  } else if (kind === 'sprint_item') {
    const project = await projectOf(reads, given);
    const items = project ? await reads.openItems(project.id) : [];
    values = items.filter((i) => i.id.startsWith(typed) || i.slug.toLowerCase().includes(typed) || i.title.toLowerCase().includes(typed)).map((i) => i.id);
  }
  return { completion: { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: values.length > MAX_VALUES } };
}

/** The project the other arguments name (`project` or `project_id`), or undefined when they name none that exists. */
async function projectOf(reads: LiveReads, given: Record<string, string>): Promise<ProjectRef | undefined> {
  const ref = given.project ?? given.project_id;
  return ref?.trim() ? projectNamed(await reads.projects(), ref) : undefined;
}
