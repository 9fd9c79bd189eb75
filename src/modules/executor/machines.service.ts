import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager, In, MoreThan } from 'typeorm';
import { currentTenant, TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { allowanceOf } from '../../common/plans';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { requireProject } from '../projects/require-project.util';
import { TenantPlans } from '../push/tenant-plans.service';
import { Task } from '../tasks/task.entity';
import { RegisterMachineDto } from './dto/register-machine.dto';
import { ExecutorRun } from './executor-run.entity';
import { ExecutorError } from './executor.errors';
import { MachineView, toMachineView } from './executor.views';
import { OrphanMarks } from './orphan-marks';
import { RegisteredMachine } from './registered-machine.entity';

export interface SlotReadiness {
  ready: boolean;
  free_slots: number;
  total_slots: number;
  running_runs: number;
  live_machines: number;
  registered_machines: number;
  queued_tasks: number;
  reason: string | null;
}

/**
 * Machines that run a project's executors. A machine registers by name (the
 * same name again refreshes it) and keeps a heartbeat; it is alive while the
 * heartbeat is younger than SERVICE_MACHINE_STALE_SECONDS.
 */
@Injectable()
export class MachinesService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly plans: TenantPlans,
    private readonly marks: OrphanMarks,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Machines with a heartbeat after this are alive. */
  liveSince(): Date {
    return new Date(this.clock.now().getTime() - this.config.machineStaleS * 1000);
  }

  async register(projectId: string, input: RegisterMachineDto): Promise<MachineView> {
    const { plan } = await this.plans.planOf(currentTenant().tenantId);
    const allowance = allowanceOf(plan);
    const slots = input.slots ?? 1;
    if (slots > allowance.maxSlotsPerMachine) throw ExecutorError.planLimit(plan, 'slots per machine', allowance.maxSlotsPerMachine);
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      const now = this.clock.now();
      const known = await m.findOneBy(RegisteredMachine, { project_id: projectId, name: input.name });
      if (known) {
        await m.update(RegisteredMachine, { id: known.id }, { slots, last_heartbeat_at: now });
        return this.view(m, { ...known, slots, last_heartbeat_at: now });
      }
      const live = await m.countBy(RegisteredMachine, { project_id: projectId, last_heartbeat_at: MoreThan(this.liveSince()) });
      if (live >= allowance.maxRegisteredMachines) throw ExecutorError.planLimit(plan, 'live registered machines per project', allowance.maxRegisteredMachines);
      const machine: RegisteredMachine = { id: randomUUID(), project_id: projectId, name: input.name, slots, last_heartbeat_at: now, created_at: now };
      await m.insert(RegisteredMachine, machine);
      return this.view(m, machine);
    });
  }

  async heartbeat(projectId: string, machineId: string): Promise<MachineView> {
    return this.db.transaction(async (m) => {
      const machine = await this.require(m, projectId, machineId);
      machine.last_heartbeat_at = this.clock.now();
      await m.update(RegisteredMachine, { id: machine.id }, { last_heartbeat_at: machine.last_heartbeat_at });
      return this.view(m, machine);
    });
  }

  /** Oldest first. */
  async list(projectId: string): Promise<MachineView[]> {
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      const machines = await m.find(RegisteredMachine, { where: { project_id: projectId }, order: { created_at: 'ASC', id: 'ASC' } });
      const views: MachineView[] = [];
      for (const machine of machines) views.push(await this.view(m, machine));
      return views;
    });
  }

  /** Forgets a machine: its running runs are orphaned (their queued tasks go back to the queue) and its worktrees await cleanup. */
  async remove(projectId: string, machineId: string): Promise<void> {
    const orphaned = await this.db.transaction(async (m) => {
      const machine = await this.require(m, projectId, machineId);
      const reason = `machine ${machine.name} was deregistered`;
      const runs = await this.marks.orphanRuns(m, await m.findBy(ExecutorRun, { machine_id: machine.id, status: 'running' }), () => reason);
      await this.marks.flagWorktreesOf(m, { machine_id: machine.id }, reason);
      await m.delete(RegisteredMachine, { id: machine.id });
      return runs;
    });
    await this.marks.announce(orphaned);
  }

  /** Whether the project can take another executor run now: free slots of live machines. */
  async slotReadiness(projectId: string): Promise<SlotReadiness> {
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      const machines = await m.findBy(RegisteredMachine, { project_id: projectId });
      const live = machines.filter((x) => x.last_heartbeat_at > this.liveSince());
      const total = live.reduce((sum, x) => sum + x.slots, 0);
      const running = live.length ? await m.countBy(ExecutorRun, { machine_id: In(live.map((x) => x.id)), status: 'running' }) : 0;
      const queued = await m.countBy(Task, { project_id: projectId, source: 'enqueue', status: 'pending' });
      const free = Math.max(total - running, 0);
      const reason =
        live.length === 0 ? (machines.length ? 'no registered machine has a recent heartbeat' : 'no machine is registered') : free === 0 ? `all ${total} slots are busy` : null;
      return {
        ready: free > 0,
        free_slots: free,
        total_slots: total,
        running_runs: running,
        live_machines: live.length,
        registered_machines: machines.length,
        queued_tasks: queued,
        reason,
      };
    });
  }

  /** The machine `machineId` of the project (404 like a missing one otherwise), with a free slot when `needSlot`. */
  async require(m: EntityManager, projectId: string, machineId: string, needSlot = false): Promise<RegisteredMachine> {
    await requireProject(m, projectId);
    const machine = await m.findOneBy(RegisteredMachine, { id: machineId, project_id: projectId });
    if (!machine) throw ExecutorError.machineNotFound(machineId);
    if (needSlot && (await m.countBy(ExecutorRun, { machine_id: machine.id, status: 'running' })) >= machine.slots) throw ExecutorError.noFreeSlot(machine.id, machine.slots);
    return machine;
  }

  private async view(m: EntityManager, machine: RegisteredMachine): Promise<MachineView> {
    const running = await m.countBy(ExecutorRun, { machine_id: machine.id, status: 'running' });
    return toMachineView(machine, machine.last_heartbeat_at > this.liveSince(), running);
  }
}
