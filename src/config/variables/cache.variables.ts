import { connectionUrl, integer } from '../config.parsers';
import { variable } from './variable';

/** Redis, push wake-ups and their database fallback, and the monthly push budgets. */
export const CACHE_VARIABLES = {
  cacheUrl: variable<string | undefined>({
    name: 'SERVICE_CACHE_URL',
    description: 'Redis URL for push wake-ups and cross-instance rate limits',
    sensitive: true,
    parse: connectionUrl('redis', 'rediss'),
  }),
  pollIntervalMs: variable({
    name: 'SERVICE_POLL_INTERVAL_MS',
    description: 'how often the waiting receive_messages and HITL waits of one project (or tenant) share a database read when push is not available',
    sensitive: false,
    parse: integer(50, 60_000),
    default: 1000,
  }),
  pushSafetyPollMs: variable({
    name: 'SERVICE_PUSH_SAFETY_POLL_MS',
    description: 'how often waiters share a database read while push is live, or on SQLite without Redis (a safety net for a lost wake-up)',
    sensitive: false,
    parse: integer(100, 600_000),
    default: 10_000,
  }),
  maxWaitS: variable({
    name: 'SERVICE_MAX_WAIT_SECONDS',
    description: 'cap on the wait of receive_messages and GET /hitl/{id}?wait= (tool calls time out after about a minute)',
    sensitive: false,
    parse: integer(1, 600),
    default: 50,
  }),
  pubsubPrefix: variable({
    name: 'SERVICE_PUBSUB_PREFIX',
    description: 'prefix of the Redis channels and keys used for push wake-ups, push budgets and refused-credential counters',
    sensitive: false,
    parse: (raw: string) => {
      if (!/^[A-Za-z0-9:_.-]{1,64}$/.test(raw)) throw new Error('must be 1 to 64 letters, digits or :_.-');
      return raw;
    },
    default: 'baton',
  }),
  pushBudgetWarning: variable({
    name: 'SERVICE_PUSH_BUDGET_WARNING',
    description: 'monthly publish commands of a tenant after which it gets a dashboard notice and an e-mail (tier 1)',
    sensitive: false,
    parse: integer(1, 1_000_000_000),
    default: 500_000,
  }),
  pushBudgetDisable: variable({
    name: 'SERVICE_PUSH_BUDGET_DISABLE',
    description: 'monthly publish commands of a tenant after which its push pauses until next month (tier 2)',
    sensitive: false,
    parse: integer(1, 1_000_000_000),
    default: 1_000_000,
  }),
  pushBudgetAdminAlert: variable({
    name: 'SERVICE_PUSH_BUDGET_ADMIN_ALERT',
    description: 'monthly publish commands of a tenant that raise an admin alert: the pause of tier 2 failed (tier 3)',
    sensitive: false,
    parse: integer(1, 1_000_000_000),
    default: 2_000_000,
  }),
} as const;
