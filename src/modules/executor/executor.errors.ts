import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';
import { Plan } from '../../common/plans';
import { RunStatus } from './executor.constants';

export enum ExecutorErrorCode {
  MachineNotFound = 'MACHINE_NOT_FOUND',
  RunNotFound = 'RUN_NOT_FOUND',
  ExperimentNotFound = 'EXPERIMENT_NOT_FOUND',
  WorktreeNotFound = 'WORKTREE_NOT_FOUND',
  RunNotRunning = 'RUN_NOT_RUNNING',
  NoFreeSlot = 'NO_FREE_SLOT',
  PlanLimit = 'PLAN_LIMIT',
  MaxParallel = 'MAX_PARALLEL_REACHED',
  WorktreeNotActive = 'WORKTREE_NOT_ACTIVE',
  MergeSessionRequired = 'MERGE_SESSION_REQUIRED',
}

const STATUS: StatusTable<ExecutorErrorCode> = {
  [ExecutorErrorCode.MachineNotFound]: HttpStatus.NOT_FOUND,
  [ExecutorErrorCode.RunNotFound]: HttpStatus.NOT_FOUND,
  [ExecutorErrorCode.ExperimentNotFound]: HttpStatus.NOT_FOUND,
  [ExecutorErrorCode.WorktreeNotFound]: HttpStatus.NOT_FOUND,
  [ExecutorErrorCode.RunNotRunning]: HttpStatus.CONFLICT,
  [ExecutorErrorCode.NoFreeSlot]: HttpStatus.CONFLICT,
  [ExecutorErrorCode.MaxParallel]: HttpStatus.CONFLICT,
  [ExecutorErrorCode.WorktreeNotActive]: HttpStatus.CONFLICT,
  [ExecutorErrorCode.MergeSessionRequired]: HttpStatus.BAD_REQUEST,
  [ExecutorErrorCode.PlanLimit]: HttpStatus.PAYMENT_REQUIRED,
};

/** Refusals of registered machines, executor runs, experiments and worktrees. */
export class ExecutorError extends DomainErrorOf(STATUS) {
  static machineNotFound(id: string) {
    return new ExecutorError(ExecutorErrorCode.MachineNotFound, `registered machine not found: ${id}`);
  }

  static runNotFound(id: string) {
    return new ExecutorError(ExecutorErrorCode.RunNotFound, `run not found: ${id}`);
  }

  static experimentNotFound(id: string) {
    return new ExecutorError(ExecutorErrorCode.ExperimentNotFound, `experiment not found: ${id}`);
  }

  static worktreeNotFound(id: string) {
    return new ExecutorError(ExecutorErrorCode.WorktreeNotFound, `worktree not found: ${id}`);
  }

  static runNotRunning(id: string, status: RunStatus) {
    return new ExecutorError(ExecutorErrorCode.RunNotRunning, `run ${id} is ${status}: only a running run can be finished`, { status });
  }

  static noFreeSlot(machineId: string, slots: number) {
    return new ExecutorError(ExecutorErrorCode.NoFreeSlot, `machine ${machineId} already runs ${slots} runs, all its slots`, { slots });
  }

  static planLimit(plan: Plan, what: string, limit: number) {
    return new ExecutorError(ExecutorErrorCode.PlanLimit, `the ${plan} plan allows ${limit} ${what}`, { plan, limit });
  }

  static maxParallel(reason: string) {
    return new ExecutorError(ExecutorErrorCode.MaxParallel, `${reason}: a run may start when one of them finishes`);
  }

  static worktreeNotActive(id: string, status: string) {
    return new ExecutorError(ExecutorErrorCode.WorktreeNotActive, `worktree ${id} is ${status}: only an active worktree can be merged`, { status });
  }

  static mergeSessionRequired(id: string) {
    return new ExecutorError(
      ExecutorErrorCode.MergeSessionRequired,
      `session_id is required: worktree ${id} has no session, and this project's merges wait for a person's approval, asked by a session`,
    );
  }
}
