import { ExecutorRun } from './executor-run.entity';
import { Experiment } from './experiment.entity';
import { ExperimentEvent } from './experiment-event.entity';
import { RegisteredMachine } from './registered-machine.entity';
import { Worktree } from './worktree.entity';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export type MachineView = ReturnType<typeof toMachineView>;
export type RunView = ReturnType<typeof toRunView>;
export type ExperimentView = ReturnType<typeof toExperimentView>;
export type ExperimentEventView = ReturnType<typeof toExperimentEventView>;
export type WorktreeView = ReturnType<typeof toWorktreeView>;

/** A machine as clients see it: `alive` while its heartbeat is younger than SERVICE_MACHINE_STALE_SECONDS. */
export function toMachineView(m: RegisteredMachine, alive: boolean, runningRuns: number) {
  return {
    id: m.id,
    project_id: m.project_id,
    name: m.name,
    slots: m.slots,
    running_runs: runningRuns,
    alive,
    last_heartbeat_at: m.last_heartbeat_at.toISOString(),
    created_at: m.created_at.toISOString(),
  };
}

export function toRunView(r: ExecutorRun) {
  return {
    id: r.id,
    project_id: r.project_id,
    machine_id: r.machine_id,
    session_id: r.session_id,
    task_id: r.task_id,
    experiment_id: r.experiment_id,
    description: r.description,
    status: r.status,
    summary: r.summary,
    test_command: r.test_command,
    started_at: r.started_at.toISOString(),
    finished_at: iso(r.finished_at),
    updated_at: r.updated_at.toISOString(),
  };
}

export function toExperimentView(e: Experiment) {
  return {
    id: e.id,
    project_id: e.project_id,
    name: e.name,
    hypothesis: e.hypothesis,
    status: e.status,
    created_at: e.created_at.toISOString(),
    updated_at: e.updated_at.toISOString(),
  };
}

export function toExperimentEventView(e: ExperimentEvent) {
  return { id: e.id, experiment_id: e.experiment_id, kind: e.kind, body: e.body, created_at: e.created_at.toISOString() };
}

export function toWorktreeView(w: Worktree) {
  return {
    id: w.id,
    project_id: w.project_id,
    machine_id: w.machine_id,
    session_id: w.session_id,
    path: w.path,
    branch: w.branch,
    status: w.status,
    cleanup_reason: w.cleanup_reason,
    sprint_item_id: w.sprint_item_id,
    merge_status: w.merge_status,
    created_at: w.created_at.toISOString(),
    updated_at: w.updated_at.toISOString(),
  };
}
