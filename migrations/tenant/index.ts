import { MigrationClass } from '../../libs/tenancy';
import { Projects1732240000000 } from './1732240000000-projects';
import { SessionsAndFileLocks1732245000000 } from './1732245000000-sessions-and-file-locks';
import { ProjectSettings1732246000000 } from './1732246000000-project-settings';
import { Goals1732250000000 } from './1732250000000-goals';
import { Tasks1732250100000 } from './1732250100000-tasks';
import { NotesAndDecisions1732250200000 } from './1732250200000-notes-and-decisions';
import { WorkspaceLayer1732250300000 } from './1732250300000-workspace-layer';
import { ProjectExtras1732250400000 } from './1732250400000-project-extras';
import { SessionNotes1732255000000 } from './1732255000000-session-notes';
import { Handoffs1732256000000 } from './1732256000000-handoffs';
import { Hooks1732257000000 } from './1732257000000-hooks';
import { HitlMessagesNotifications1732270000000 } from './1732270000000-hitl-messages-notifications';
import { SprintItems1732260000000 } from './1732260000000-sprint-items';
import { ProfileLayers1732280000000 } from './1732280000000-profile-layers';
import { AiLog1732290000000 } from './1732290000000-ai-log';
import { AiLogLeanIndexes1732290100000 } from './1732290100000-ai-log-lean-indexes';
import { HandoffTokenHashes1732300000000 } from './1732300000000-handoff-token-hashes';
import { HandoffCarriers1732310000000 } from './1732310000000-handoff-carriers';
import { MessageSenderSessions1732320000000 } from './1732320000000-message-sender-sessions';
import { ProjectTime1732330000000 } from './1732330000000-project-time';
import { ProjectCodehost1732331900000 } from './1732331900000-project-codehost';
import { Executor1732332000000 } from './1732332000000-executor';
import { WorkspaceNotifySettings1732333000000 } from './1732333000000-workspace-notify-settings';
import { WorkspaceConnections1732333100000 } from './1732333100000-workspace-connections';
import { McpTasks1732343000000 } from './1732343000000-mcp-tasks';
import { Knowledge1732332500000 } from './1732332500000-knowledge';
import { UsageSettings1732333000000 } from './1732333000000-usage-settings';
import { AgentInterfaces1732341000000 } from './1732341000000-agent-interfaces';
import { PkgGuardRules1732341100000 } from './1732341100000-pkg-guard-rules';
import { QuietDuties1732344000000 } from './1732344000000-quiet-duties';
import { RewindTokenMoments1732347000000 } from './1732347000000-rewind-token-moments';
import { WorkspaceBlog1732347100000 } from './1732347100000-workspace-blog';
import { ProfileRevisionAuthors1732347300000 } from './1732347300000-profile-revision-authors';
import { TaskClaimNotices1732347400000 } from './1732347400000-task-claim-notices';
import { McpSessions1732342000000 } from './1732342000000-mcp-sessions';
import { TunnelSettings1732340000000 } from './1732340000000-tunnel-settings';
import { HitlReviews1732345000000 } from './1732345000000-hitl-reviews';
import { ExecutorSettings1732345100000 } from './1732345100000-executor-settings';

/** The tenant set, oldest first. Append only. */
export const TENANT_MIGRATIONS: MigrationClass[] = [
  Projects1732240000000,
  SessionsAndFileLocks1732245000000,
  ProjectSettings1732246000000,
  Goals1732250000000,
  Tasks1732250100000,
  NotesAndDecisions1732250200000,
  WorkspaceLayer1732250300000,
  ProjectExtras1732250400000,
  HitlMessagesNotifications1732270000000,
  SprintItems1732260000000,
  SessionNotes1732255000000,
  Handoffs1732256000000,
  Hooks1732257000000,
  ProfileLayers1732280000000,
  AiLog1732290000000,
  AiLogLeanIndexes1732290100000,
  HandoffTokenHashes1732300000000,
  HandoffCarriers1732310000000,
  MessageSenderSessions1732320000000,
  ProjectTime1732330000000,
  ProjectCodehost1732331900000,
  Executor1732332000000,
  Knowledge1732332500000,
  UsageSettings1732333000000,
  WorkspaceNotifySettings1732333000000,
  WorkspaceConnections1732333100000,
  TunnelSettings1732340000000,
  AgentInterfaces1732341000000,
  PkgGuardRules1732341100000,
  McpSessions1732342000000,
  McpTasks1732343000000,
  QuietDuties1732344000000,
  RewindTokenMoments1732347000000,
  WorkspaceBlog1732347100000,
  ProfileRevisionAuthors1732347300000,
  HitlReviews1732345000000,
  ExecutorSettings1732345100000,
  TaskClaimNotices1732347400000,
];
