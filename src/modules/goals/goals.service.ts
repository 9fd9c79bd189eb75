import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { currentTenant, TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { RequestError } from '../../common/errors/request-error';
import { lockProject } from '../projects/project-lock.util';
import { requireProject } from '../projects/require-project.util';
import { DEFAULT_PAGE_SIZE, PageQueryDto } from '../tasks/dto/page-query.dto';
import { recentTasks } from '../tasks/task-rows';
import { toTaskView } from '../tasks/task.view';
import { dedupeAutoBlocks, mergeMinor, stripAutoBlocks } from './auto-block.util';
import { SetGoalDto } from './dto/set-goal.dto';
import { SetNorthStarDto } from './dto/set-north-star.dto';
import { Goal } from './goal.entity';
import { GoalVersion } from './goal-version.entity';
import { GoalVersionView, GoalView, GoalWithTasksView, toGoalVersionView, toGoalView } from './goal.view';
import { GOAL_CONTENT_MAX, GoalMode } from './goals.constants';

/**
 * A project's goal: content, north star and sprint label, with an integer
 * version that every non-minor write bumps and a history of the versions
 * (newest first, AUTO BLOCKS stripped). A minor write updates the current
 * version in place.
 */
@Injectable()
export class GoalsService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly events: RealtimeEvents,
  ) {}

  /** The goal, and the project's latest tasks as ambient context. */
  async get(projectId: string): Promise<GoalWithTasksView> {
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      const goal = await m.findOneBy(Goal, { project_id: projectId });
      const tasks = await recentTasks(m, projectId);
      return { ...toGoalView(goal, projectId), recent_tasks: tasks.map(toTaskView) };
    });
  }

  async set(projectId: string, input: SetGoalDto): Promise<GoalView> {
    return this.write(projectId, input.minor === true, (goal) => {
      goal.content = input.minor ? mergeMinor(goal.content, input.content) : dedupeAutoBlocks(input.content);
      if (goal.content.length > GOAL_CONTENT_MAX) {
        throw RequestError.invalidInput(`content must be at most ${GOAL_CONTENT_MAX} characters (with the AUTO BLOCKS it keeps)`);
      }
      if (input.north_star !== undefined) goal.north_star = input.north_star;
      if (input.sprint !== undefined) goal.sprint = input.sprint;
    });
  }

  async setNorthStar(projectId: string, input: SetNorthStarDto): Promise<GoalView> {
    return this.write(projectId, false, (goal) => {
      goal.north_star = input.north_star;
      goal.north_star_by = input.human_id ?? null;
    });
  }

  async setSprint(projectId: string, sprint: string): Promise<GoalView> {
    return this.write(projectId, false, (goal) => {
      goal.sprint = sprint;
    });
  }

  async history(projectId: string, page: PageQueryDto): Promise<GoalVersionView[]> {
    const versions = await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      return m.find(GoalVersion, {
        where: { project_id: projectId },
        order: { version: 'DESC' },
        take: page.limit ?? DEFAULT_PAGE_SIZE,
        skip: page.offset ?? 0,
      });
    });
    return versions.map(toGoalVersionView);
  }

  async getMode(projectId: string): Promise<{ project_id: string; mode: GoalMode }> {
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      const goal = await m.findOneBy(Goal, { project_id: projectId });
      return { project_id: projectId, mode: goal?.mode ?? 'manual' };
    });
  }

  /** Switches the goal mode; the goal's version does not change. */
  async setMode(projectId: string, mode: GoalMode): Promise<{ project_id: string; mode: GoalMode }> {
    const goal = await this.db.transaction(async (m) => {
      await lockProject(m, projectId);
      const goal = await m.findOneBy(Goal, { project_id: projectId });
      if (goal) await m.update(Goal, { id: goal.id }, { mode });
      else await m.insert(Goal, { ...blankGoal(projectId, this.clock.now()), mode });
      return toGoalView(goal ? { ...goal, mode } : { ...blankGoal(projectId, this.clock.now()), mode }, projectId);
    });
    this.announce(goal);
    return { project_id: projectId, mode };
  }

  /** Tells the tenant's dashboards the goal as it now is (`goal_changed`), once the write has committed. */
  private announce(goal: GoalView): void {
    this.events.publish({ tenantId: currentTenant().tenantId, event: 'goal_changed', data: { project_id: goal.project_id, goal } });
  }

  /**
   * Applies `change` to the goal under the project's lock. A non-minor write
   * (and the first write of all, minor or not) makes a new version and records
   * it in the history; a minor write rewrites the current version in place.
   */
  private async write(projectId: string, minor: boolean, change: (goal: Goal) => void): Promise<GoalView> {
    const view = await this.db.transaction(async (m) => {
      await lockProject(m, projectId);
      const now = this.clock.now();
      const existing = await m.findOneBy(Goal, { project_id: projectId });
      const goal = existing ?? blankGoal(projectId, now);
      change(goal);
      const inPlace = minor && goal.version > 0;
      if (!inPlace) {
        if (goal.version === 0) goal.created_at = now;
        goal.version += 1;
      }
      goal.updated_at = now;
      const fields = {
        content: goal.content,
        north_star: goal.north_star,
        north_star_by: goal.north_star_by,
        sprint: goal.sprint,
        version: goal.version,
        created_at: goal.created_at,
        updated_at: now,
      };
      if (existing) await m.update(Goal, { id: goal.id }, fields);
      else await m.insert(Goal, goal);
      const recorded = { content: stripAutoBlocks(goal.content), north_star: goal.north_star, sprint: goal.sprint, updated_at: now };
      if (inPlace) await m.update(GoalVersion, { project_id: projectId, version: goal.version }, recorded);
      else await m.insert(GoalVersion, { id: randomUUID(), project_id: projectId, version: goal.version, created_at: now, ...recorded });
      return toGoalView(goal, projectId);
    });
    this.announce(view);
    return view;
  }
}

function blankGoal(projectId: string, now: Date): Goal {
  return { id: randomUUID(), project_id: projectId, content: '', north_star: '', north_star_by: null, sprint: '', version: 0, mode: 'manual', created_at: now, updated_at: now };
}
