import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { Goal } from '../goals/goal.entity';
import { GoalVersion } from '../goals/goal-version.entity';
import { HitlRequest } from '../hitl/hitl-request.entity';
import { Message } from '../messages/message.entity';
import { DecisionLogEntry } from '../notes/decision-log-entry.entity';
import { DevlogEntry } from '../notes/devlog-entry.entity';
import { Insight } from '../notes/insight.entity';
import { PinnedDecision } from '../notes/pinned-decision.entity';
import { ProjectNote } from '../notes/project-note.entity';
import { ProjectFile } from '../projects/project-file.entity';
import { Project } from '../projects/project.entity';
import { Session } from '../sessions/session.entity';
import { SprintItem } from '../sprint/sprint-item.entity';
import { Task } from '../tasks/task.entity';
import { WorkspaceBlogPost } from '../workspace-layer/workspace-blog-post.entity';
import { WorkspaceDecision } from '../workspace-layer/workspace-decision.entity';
import { WorkspaceNote } from '../workspace-layer/workspace-note.entity';
import { WorkspaceSprintItem } from '../workspace-layer/workspace-sprint-item.entity';

/**
 * What a data export carries of a workspace, one list of rows per kind, each
 * row as stored, oldest first (timestamps as ISO text; columns holding JSON as JSON text;
 * project rows are tied together by `project_id`). Sign-in secrets, hashes of
 * handoff tokens and the AI-log are not among them.
 */
const EXPORTED: Record<string, [EntityTarget<ObjectLiteral>, orderedBy: string]> = {
  projects: [Project, 'created_at'],
  goals: [Goal, 'created_at'],
  goal_versions: [GoalVersion, 'created_at'],
  sprint_items: [SprintItem, 'added_at'],
  tasks: [Task, 'created_at'],
  notes: [ProjectNote, 'created_at'],
  insights: [Insight, 'created_at'],
  decisions: [DecisionLogEntry, 'created_at'],
  pinned_decisions: [PinnedDecision, 'created_at'],
  devlog: [DevlogEntry, 'created_at'],
  sessions: [Session, 'created_at'],
  hitl_requests: [HitlRequest, 'created_at'],
  messages: [Message, 'created_at'],
  project_files: [ProjectFile, 'created_at'],
  workspace_notes: [WorkspaceNote, 'created_at'],
  workspace_decisions: [WorkspaceDecision, 'created_at'],
  workspace_sprint_items: [WorkspaceSprintItem, 'created_at'],
  workspace_blog_posts: [WorkspaceBlogPost, 'created_at'],
};

export type WorkspaceData = Record<keyof typeof EXPORTED, ObjectLiteral[]>;

/** Reads every exported kind of the current tenant's data (run it as that tenant, through TenantDb). */
export async function readWorkspaceData(m: EntityManager): Promise<WorkspaceData> {
  const data: Record<string, ObjectLiteral[]> = {};
  for (const [name, [entity, orderedBy]] of Object.entries(EXPORTED)) data[name] = await m.find(entity, { order: { [orderedBy]: 'ASC', id: 'ASC' } });
  return data as WorkspaceData;
}
