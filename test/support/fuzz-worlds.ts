import { Receiver } from './http-receiver';
import { Backend, backends, RunningBackend } from './backends';
import { Http } from './http';
import { callToolOnce } from './mcp-client';
import { Random, seededRandom, seedFor } from './random';
import { seededUuid } from './schema-inputs';
import { ADMIN_PASSWORD } from './admin';
import { tenantClient } from './tenant-client';

/**
 * The data a surface fuzz suite works on: a "home" world whose ids fill the
 * requests, and a "foreign" one (the other tenant on a hosted instance, another
 * project self-hosted) whose ids are slipped into them. Every text a world
 * stores carries its marker, so a response that shows the foreign world's data
 * is found by searching for that marker.
 */

export interface WorldIds {
  project: string;
  session: string;
  item: string;
  task: string;
  note: string;
  hitl: string;
  pinned: string;
  workspaceNote?: string;
  workspaceDecision?: string;
  workspaceItem?: string;
  proposal?: string;
  a2aTask: string;
  worktree: string;
  machine: string;
  experiment: string;
  run: string;
  tenant?: string;
}

export interface FuzzWorld {
  marker: string;
  http: Http;
  token?: string;
  ids: WorldIds;
  /** The id for an input field of this name (`workspace`: the field belongs to a workspace route or tool). */
  idFor(field: string, workspace: boolean): string | undefined;
}

async function created(http: Http, path: string, body: unknown): Promise<string> {
  const res = await http.post(path, body);
  if (res.status !== 200 && res.status !== 201) throw new Error(`seeding ${path}: ${res.status} ${res.text.slice(0, 300)}`);
  const id = res.body?.id ?? res.body?.message?.id;
  if (typeof id !== 'string') throw new Error(`seeding ${path}: no id in ${res.text.slice(0, 300)}`);
  return id;
}

/** A marked machine, experiment, run (written by executors over MCP) and worktree. */
async function executorRecords(http: Http, token: string | undefined, project: string, marker: string) {
  const tool = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const res = await callToolOnce(http.base, token, name, { project_id: project, ...args });
    if (res.isError) throw new Error(`seeding ${name}: ${res.text.slice(0, 300)}`);
    return res.value.id as string;
  };
  const machine = await tool('register_machine', { name: `Machine ${marker}`, slots: 2 });
  const experiment = await tool('record_experiment', { name: `Experiment ${marker}`, hypothesis: marker });
  const run = await tool('record_run', { description: `Run ${marker}`, machine_id: machine, experiment_id: experiment });
  const worktree = await created(http, `/projects/${project}/worktrees`, { path: `/srv/${marker}`, branch: marker, machine_id: machine });
  return { machine, experiment, run, worktree };
}

/**
 * Creates a project and one of each of its records through the REST API, all
 * marked; with `workspace`, also a workspace note, decision and item (they
 * belong to the tenant, so only a world that is a tenant of its own gets them).
 */
export async function seedWorld(http: Http, marker: string, opts: { workspace: boolean; tenant?: string; token?: string }): Promise<FuzzWorld> {
  const project = await created(http, '/projects', { name: `Project ${marker}` });
  const session = await created(http, '/sessions/register', { project_id: project, name: `Session ${marker}`, human_id: `human-${marker}` });
  const p = `/projects/${project}`;
  const ids: WorldIds = {
    project,
    session,
    item: await created(http, `${p}/sprint-items`, { title: `Item ${marker}`, version: 'v1' }),
    task: await created(http, '/tasks', { session_id: session, project_id: project, description: `Task ${marker}`, status: 'pending' }),
    note: await created(http, `${p}/notes`, { title: `Note ${marker}`, body: `body ${marker}` }),
    hitl: await created(http, `${p}/hitl`, { question: `Question ${marker}?`, session_id: session }),
    pinned: await created(http, `${p}/decisions-pinned`, { title: `Pinned ${marker}`, body: `because ${marker}` }),
    ...(await executorRecords(http, opts.token, project, marker)),
    a2aTask: '',
    tenant: opts.tenant,
  };
  await created(http, `${p}/messages`, { body: `Message ${marker}`, to_session_id: session });
  const a2a = await http.post(`/a2a/${project}/tasks/send`, { message: { messageId: `m-${marker}`, role: 'ROLE_USER', parts: [{ text: `A2A task ${marker}` }] } });
  if (a2a.status !== 200) throw new Error(`seeding an A2A task: ${a2a.status} ${a2a.text.slice(0, 300)}`);
  ids.a2aTask = a2a.body.task.id;
  if (opts.workspace) {
    ids.workspaceNote = await created(http, '/workspace/notes', { title: `Workspace note ${marker}`, body: marker });
    ids.workspaceDecision = await created(http, '/workspace/decisions', { title: `Workspace decision ${marker}`, body: marker });
    ids.workspaceItem = await created(http, '/workspace/sprint-items', { title: `Workspace item ${marker}` });
    const proposal = await callToolOnce(http.base, opts.token, 'add_workspace_proposal', { title: `Proposal ${marker}`, body: marker });
    if (proposal.isError) throw new Error(`seeding a proposal: ${proposal.text.slice(0, 300)}`);
    ids.proposal = proposal.value.id;
  }
  const idFor = (field: string, workspace: boolean): string | undefined => {
    switch (field) {
      case 'project_id':
      case 'agent_id':
      case 'ids':
      case 'scope_id':
        return ids.project;
      case 'session_id':
      case 'to_session_id':
        return ids.session;
      case 'item_id':
      case 'depends_on':
      case 'parent_id':
        return workspace ? ids.workspaceItem : ids.item;
      case 'task_id':
        return ids.task;
      case 'note_id':
        return workspace ? ids.workspaceNote : ids.note;
      case 'decision_id':
      case 'supersedes':
        return workspace ? ids.workspaceDecision : ids.pinned;
      case 'request_id':
        return ids.hitl;
      case 'proposal_id':
        return ids.proposal;
      case 'tenant_id':
        return ids.tenant;
      case 'worktree_id':
        return ids.worktree;
      case 'machine_id':
        return ids.machine;
      case 'experiment_id':
        return ids.experiment;
      case 'run_id':
        return ids.run;
      default:
        return undefined;
    }
  };
  return { marker, http, token: opts.token, ids, idFor };
}

/**
 * Why a response shows the foreign world's data, or undefined: its marker must
 * never appear. (Its ids may: the fuzzer itself sends them, and a record of
 * the request, an activity log entry for example, may show them back.)
 */
export function leakIn(text: string, foreign: FuzzWorld): string | undefined {
  return text.includes(foreign.marker) ? `shows the other world's data (marker ${foreign.marker})` : undefined;
}

/** The failures of a fuzz run counted by the promise they broke, for the summary line: each figure must be 0. */
export function tally(failures: string[]): string {
  const count = (re: RegExp) => failures.filter((f) => re.test(f)).length;
  return [
    `${count(/-> (server error|no answer)/)} server errors`,
    `${count(/-> (JSON-RPC internal error|internal error|tool internal error)/)} internal MCP errors`,
    `${count(/without a (JSON )?\{?detail/)} refusals without a detail`,
    `${count(/naming|accepted/)} broken inputs not refused by name`,
    `${count(/shows the other world/)} answers showing the other world`,
    `${failures.length} failures in all`,
  ].join(', ');
}

/** The home world, the foreign one, and whether they are two tenants (hosted) or two projects of one. */
export interface Worlds {
  home: FuzzWorld;
  foreign: FuzzWorld;
  hosted: boolean;
}

/** The backends the surface fuzz suites run on, as `describe.each` rows: SQLite self-hosted and Postgres hosted. */
export function fuzzedBackends(): (readonly [string, Backend])[] {
  const fuzzed = ['sqlite (self-hosted)', 'postgres (hosted)'];
  return backends()
    .filter((b) => fuzzed.includes(b.name))
    .map((b) => [b.name, b] as const);
}

/**
 * Starts `backend` with limits a fuzz run does not trip over and seeds its two worlds, each
 * marked with a value drawn from `seed` (so a replayed seed plants the same markers).
 */
export async function startFuzzWorlds(backend: Backend, name: string, seed: number): Promise<{ run: RunningBackend; worlds: Worlds }> {
  // Routes that proxy a public service answer 502 when it is out of reach (no network here): it gets a stand-in.
  const registry = await Receiver.start();
  registry.reply = () => ({ servers: [], metadata: { count: 0 } });
  const started = await backend.start({
    SERVICE_MCP_RATE_LIMIT: '1000000',
    SERVICE_MAX_WAIT_SECONDS: '1',
    SERVICE_ADMIN_PASSWORD: ADMIN_PASSWORD,
    SERVICE_MCP_REGISTRY_URL: registry.url,
  });
  const run: RunningBackend = { ...started, stop: () => started.stop().finally(() => registry.close()) };
  const hosted = run.testApp.config.isHosted;
  const other = hosted ? await tenantClient(run.testApp, 'tenant-b') : undefined;
  const rng: Random = seededRandom(seedFor(seed, `markers ${name}`));
  const marker = (who: string) => `zq${who}${seededUuid(rng).slice(0, 8)}`;
  const home = await seedWorld(run.http, marker('home'), { workspace: true, token: run.token });
  const foreign = await seedWorld(other?.http ?? run.http, marker('away'), { workspace: hosted, tenant: other?.tenant_id, token: other?.token });
  return { run, worlds: { home, foreign, hosted } };
}
