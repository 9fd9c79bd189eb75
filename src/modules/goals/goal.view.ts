import { TaskView } from '../tasks/task.view';
import { Goal } from './goal.entity';
import { GoalVersion } from './goal-version.entity';
import { GoalMode } from './goals.constants';

export interface GoalView {
  /** null until the goal is first written. */
  id: string | null;
  project_id: string;
  content: string;
  north_star: string;
  north_star_by: string | null;
  sprint: string;
  version: number;
  mode: GoalMode;
  created_at: string | null;
  updated_at: string | null;
}

/** GET goal: the goal and, as ambient context, the project's latest tasks. */
export interface GoalWithTasksView extends GoalView {
  recent_tasks: TaskView[];
}

export interface GoalVersionView {
  version: number;
  content: string;
  north_star: string;
  sprint: string;
  created_at: string;
}

export function toGoalView(goal: Goal | null, projectId: string): GoalView {
  if (!goal) {
    return { id: null, project_id: projectId, content: '', north_star: '', north_star_by: null, sprint: '', version: 0, mode: 'manual', created_at: null, updated_at: null };
  }
  return {
    id: goal.version > 0 ? goal.id : null,
    project_id: goal.project_id,
    content: goal.content,
    north_star: goal.north_star,
    north_star_by: goal.north_star_by,
    sprint: goal.sprint,
    version: goal.version,
    mode: goal.mode,
    created_at: goal.version > 0 ? goal.created_at.toISOString() : null,
    updated_at: goal.version > 0 ? goal.updated_at.toISOString() : null,
  };
}

export function toGoalVersionView(v: GoalVersion): GoalVersionView {
  return { version: v.version, content: v.content, north_star: v.north_star, sprint: v.sprint, created_at: v.created_at.toISOString() };
}
