import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';
import { mcpSdk } from '../sdk';
import { rpcError } from '../tasks/mcp-task-store';
import type { LiveReads, ProjectRef, SessionRef, SprintItemRef } from './live-reads';

type Args = Record<string, string | undefined>;

interface WorkflowPrompt extends Prompt {
  build(reads: LiveReads, args: Args): Promise<string>;
}

const PROJECT = { name: 'project', description: 'The project: its id or its name', required: true };
const SESSION = { name: 'session', description: 'Your session: its id or its name (an active session of the project)', required: true };

/**
 * The prompts of an assistant's workflow on Baton. Each answers one user message: what to do, in
 * Baton's tools, followed by the project's state as it is when the prompt is got (read through the
 * read-only tools, in the caller's tenant).
 */
export const WORKFLOW_PROMPTS: readonly WorkflowPrompt[] = [
  {
    name: 'start_session',
    title: 'Start a session',
    description: "Start working on a project: how to open a session, with the project's context block as it is now.",
    arguments: [PROJECT, { name: 'session', description: 'A name for the new session (optional)', required: false }],
    async build(reads, args) {
      const project = await reads.project(required(args, 'project'));
      const block = await reads.contextBlock(project.id);
      const name = args.session?.trim() ? `, name "${args.session.trim()}"` : '';
      return [
        `Start a working session on the project ${label(project)}.`,
        `1. Call start_session with project_id ${project.id}${name} (handoff_token when you were given one). Keep the session_id it answers: every later call names it.`,
        '2. Read its file_warnings before editing a file another live session holds; claim_file what you edit.',
        '3. Take work with claim_sprint_item, and heartbeat while you work.',
        '',
        "The project's context block, as of now:",
        '',
        block,
      ].join('\n');
    },
  },
  {
    name: 'hand_off',
    title: 'Hand off',
    description: 'Hand the work of a session over to whoever comes next: what the session holds now, and how to write the handoff.',
    arguments: [PROJECT, SESSION],
    async build(reads, args) {
      const { project, session } = await projectAndSession(reads, args);
      const { lines } = await holdings(reads, project.id, session);
      return [
        `Hand off the work of session ${label(session)} on the project ${label(project)}.`,
        `1. Call generate_handoff with project_id ${project.id}, session_id ${session.id} and a summary of what was done, what is left and what the next session must know.`,
        '2. Give the person the token it answers: the next session starts from it (start_session handoff_token).',
        '',
        ...lines,
      ].join('\n');
    },
  },
  {
    name: 'ask_human',
    title: 'Ask a human',
    description: 'Ask a person a question and wait for the answer without holding a request open; shows the questions already pending.',
    arguments: [PROJECT, SESSION, { name: 'question', description: 'The question to ask (optional: the assistant words it)', required: false }],
    async build(reads, args) {
      const { project, session } = await projectAndSession(reads, args);
      const pending = await reads.pendingHitl(project.id);
      const question = args.question?.trim() ? `"${args.question.trim()}"` : 'your question, in one or two sentences a person can answer without reading the code';
      return [
        `Ask a person on the project ${label(project)}: ${question}.`,
        `1. If one of the pending questions below already asks it, wait for that one instead of asking again.`,
        `2. Otherwise call request_hitl with project_id ${project.id}, session_id ${session.id}, the question, the context the person needs and an urgency (low, normal, high or blocking).`,
        '3. Wait for the answer with get_hitl_request (request_id, wait in seconds), called as a task when your client can: the call answers at once and tasks/result gives the answer when it comes, from any instance, even after you reconnect.',
        '',
        pending.length === 0 ? 'No question of this project is pending.' : `Pending questions of this project (${pending.length}):`,
        ...pending.map((h) => `- ${h.id} [${h.urgency}, for ${h.assigned_to}${h.session_id === session.id ? ', asked by this session' : ''}]: ${h.question}`),
      ].join('\n');
    },
  },
  {
    name: 'close_out',
    title: 'Close out',
    description: 'Finish a session cleanly: its claimed items, file locks and open questions as they are now, and the steps to close it.',
    arguments: [PROJECT, SESSION, { name: 'sprint_item', description: 'The sprint item finished in this session (its id, optional)', required: false }],
    async build(reads, args) {
      const { project, session } = await projectAndSession(reads, args);
      const { items, lines } = await holdings(reads, project.id, session);
      const finished = args.sprint_item?.trim() ? items.find((i) => i.id === args.sprint_item?.trim().toLowerCase()) : undefined;
      if (args.sprint_item?.trim() && !finished)
        throw rpcError(mcpSdk().ErrorCode.InvalidParams, `sprint_item: no unfinished sprint item of this project has the id "${args.sprint_item}"`);
      return [
        `Close out session ${label(session)} on the project ${label(project)}.`,
        finished
          ? `1. Call complete_sprint_item for ${finished.id} ("${finished.title}") with notes on what was done; release_sprint_item any other item you will not finish.`
          : '1. complete_sprint_item each item you finished (with notes); release_sprint_item the ones you will not finish.',
        '2. release_file each file you still hold; log_decision what was decided and why.',
        `3. generate_handoff with session_id ${session.id} when someone will continue the work.`,
        `4. close_session with session_id ${session.id}: it frees what is left and re-queues unfinished work.`,
        '',
        ...lines,
      ].join('\n');
    },
  },
];

export function workflowPrompt(name: string): WorkflowPrompt | undefined {
  return WORKFLOW_PROMPTS.find((p) => p.name === name);
}

/** The prompts as prompts/list lists them. */
export function listedPrompts(): Prompt[] {
  return WORKFLOW_PROMPTS.map(({ name, title, description, arguments: args }) => ({ name, title, description, arguments: args }));
}

/** prompts/get: the prompt's one user message, built from the project's state now. */
export async function getPrompt(reads: LiveReads, name: string, args: Args = {}): Promise<GetPromptResult> {
  const prompt = workflowPrompt(name);
  if (!prompt) throw rpcError(mcpSdk().ErrorCode.InvalidParams, `unknown prompt: ${name} (prompts: ${WORKFLOW_PROMPTS.map((p) => p.name).join(', ')})`);
  const unknown = Object.keys(args).filter((key) => !prompt.arguments?.some((a) => a.name === key));
  if (unknown.length > 0) throw rpcError(mcpSdk().ErrorCode.InvalidParams, `unknown argument ${unknown[0]} of the prompt ${name}`);
  const text = await prompt.build(reads, args);
  return { description: prompt.description, messages: [{ role: 'user', content: { type: 'text', text } }] };
}

function required(args: Args, name: string): string {
  const value = args[name]?.trim();
  if (!value) throw rpcError(mcpSdk().ErrorCode.InvalidParams, `${name} is required`);
  return value;
}

async function projectAndSession(reads: LiveReads, args: Args): Promise<{ project: ProjectRef; session: SessionRef }> {
  const project = await reads.project(required(args, 'project'));
  const session = await reads.session(project.id, required(args, 'session'));
  return { project, session };
}

function label(thing: { id: string; name: string }): string {
  return `"${thing.name}" (${thing.id})`;
}

/** What a session holds now (its claimed items, file locks and pending questions) as lines, and the project's open items. */
async function holdings(reads: LiveReads, projectId: string, session: SessionRef): Promise<{ items: SprintItemRef[]; lines: string[] }> {
  const [items, locks, hitl] = await Promise.all([reads.openItems(projectId), reads.locks(projectId), reads.pendingHitl(projectId)]);
  const mine = items.filter((i) => i.claimed_by_session_id === session.id);
  const files = locks.filter((l) => l.session_id === session.id);
  const asked = hitl.filter((h) => h.session_id === session.id);
  const lines = [
    `What the session holds now (last seen ${session.last_seen}):`,
    mine.length === 0 ? '- no claimed sprint item' : `- claimed sprint items: ${mine.map((i) => `${i.id} "${i.title}" (${i.status})`).join('; ')}`,
    files.length === 0 ? '- no file lock' : `- file locks: ${files.map((l) => l.file_path).join(', ')}`,
    asked.length === 0 ? '- no pending question' : `- pending questions it asked: ${asked.map((h) => `${h.id} "${h.question}"`).join('; ')}`,
  ];
  return { items, lines };
}
