/**
 * The one place the dashboard takes the shapes of Baton's answers and events from. Answers come from
 * the OpenAPI document (`/openapi.json`), which `npm run build` writes from the server's code together
 * with `openapi-types.gen.ts`; the few names the document does not carry are the server's own types,
 * imported type-only (erased at build: no server code reaches the bundle). Never retype a response
 * here; when the server's view changes, `npm run typecheck` shows what the dashboard must follow.
 */
import type { Schemas } from './openapi-types.gen';

export type ProjectView = Schemas['ProjectView'];
export type HitlView = Schemas['HitlView'];
export type GoalView = Schemas['GoalView'];
export type GoalVersionView = Schemas['GoalVersionView'];
export type GoalWithTasksView = Schemas['GoalWithTasksView'];
export type SprintItemView = Schemas['SprintItemView'];
export type SprintGates = Schemas['SprintGates'];
export type WaitingGate = Schemas['WaitingGate'];
export type WaitingItem = Schemas['WaitingItem'];
export type SessionView = Schemas['SessionView'];
export type PinnedDecisionView = Schemas['PinnedDecisionView'];
export type DecisionLogEntryView = Schemas['DecisionLogEntryView'];
export type ProjectNoteView = Schemas['ProjectNoteView'];
export type InsightView = Schemas['InsightView'];
export type EffectiveProfile = Schemas['EffectiveProfile'];
export type FieldResolution = Schemas['FieldResolution'];
export type ProjectSettings = Schemas['ProjectSettings'];
export type UpdateProjectSettingsDto = Schemas['UpdateProjectSettingsDto'];
export type NotifySettingsView = Schemas['NotifySettingsView'];
export type MeView = Schemas['MeView'];
export type WebSessionView = Schemas['WebSessionView'];
export type ApiTokenView = Schemas['ApiTokenView'];
export type MemberView = Schemas['MemberView'];
export type LockView = Schemas['LockView'];
export type ForcedRelease = Schemas['ForcedRelease'];
export type MessageView = Schemas['MessageView'];
export type MessagePage = Schemas['MessagePage'];
export type HandoffSummary = Schemas['HandoffSummary'];
export type AiLogEventView = Schemas['AiLogEventView'];
export type TimelinePage = Schemas['TimelinePage'];

/** Names the document does not carry (event names, statuses used in the page's own logic): the server's types, type-only. */
export type { HitlStatus, HitlUrgency } from '../../../../src/modules/hitl/hitl-request.entity';
export type { RealtimeEventName } from '../../../../src/common/events/realtime-events';
export type { GoalMode } from '../../../../src/modules/goals/goals.constants';
export type { SprintItemStatus } from '../../../../src/modules/sprint/sprint.constants';
export type { KnowledgeKind } from '../../../../src/modules/notes/knowledge-events.service';
export type { MyWorkspace } from '../../../../src/modules/accounts/account-requests.service';
export type { UsageSettings } from '../../../../src/modules/billing/usage-settings.view';
export type { InvitedMember } from '../../../../src/modules/members/invites.service';
export type { TimelineEntryView } from '../../../../src/modules/ai-log/ai-log-event.view';
