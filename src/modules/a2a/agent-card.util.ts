import type { AgentCard } from '@a2a-js/sdk';
import { a2aSdk } from './a2a-sdk';

export interface AgentCardInput {
  /** The instance's public address, without a trailing slash. */
  base: string;
  version: string;
  /** Hosted instances take a bearer token (`sk_service_...`) on every A2A call. */
  hosted: boolean;
  /** The project (agent) the card is for; none: the instance's card, where a call names the agent as its `tenant`. */
  agentId?: string;
}

/**
 * Baton's A2A agent card (A2A 1.0, built with the SDK's AgentCard type). Each
 * project of a workspace is an agent: its JSON-RPC endpoint is
 * `/a2a/{agent_id}`; the instance's card points at `/a2a`, where a call names
 * the project in the request's `tenant` field, as A2A 1.0 does for
 * multi-tenant agents.
 */
export function buildAgentCard(input: AgentCardInput): Record<string, unknown> {
  const sdk = a2aSdk();
  const url = input.agentId ? `${input.base}/a2a/${input.agentId}` : `${input.base}/a2a`;
  const card: AgentCard = {
    name: 'Baton',
    description:
      'Coordination service for software projects worked on by people and AI coding sessions. Hand a task to a project team: it is stored as submitted, ' +
      "shown to the project's sessions, and its state follows their work." +
      (input.agentId ? '' : ' Each project is an agent: use /a2a/{project_id}, or name the project id as the request tenant.'),
    supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: sdk.A2A_PROTOCOL_VERSION }],
    provider: { url: input.base, organization: 'Baton' },
    version: input.version,
    documentationUrl: `${input.base}/mcp/quickstart`,
    capabilities: { streaming: false, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: input.hosted
      ? { bearer: { scheme: { $case: 'httpAuthSecurityScheme', value: { description: 'A workspace API token (sk_service_...)', scheme: 'Bearer', bearerFormat: 'sk_service_' } } } }
      : {},
    securityRequirements: input.hosted ? [{ schemes: { bearer: { list: [] } } }] : [],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'hand-over-task',
        name: 'Hand a task to the project team',
        description: "Send a task as a message: it is stored as submitted and appears in the project's sessions, which move it to working, completed, failed or rejected.",
        tags: ['tasks', 'handoff', 'coordination'],
        examples: ['Fix the failing login test on main', 'Review the migration plan in docs/migrations.md'],
        inputModes: ['text/plain'],
        outputModes: ['text/plain'],
        securityRequirements: [],
      },
      {
        id: 'task-status',
        name: 'Follow a handed-over task',
        description: 'Read the state of a task sent earlier (GetTask), or cancel it while it is still open (CancelTask).',
        tags: ['tasks', 'status'],
        examples: [],
        inputModes: ['text/plain'],
        outputModes: ['text/plain'],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
  return sdk.AgentCard.toJSON(card) as Record<string, unknown>;
}
