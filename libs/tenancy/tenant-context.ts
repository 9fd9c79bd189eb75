import { AsyncLocalStorage } from 'node:async_hooks';

/** Where one tenant's data lives. */
export interface TenantContext {
  tenantId: string;
  /** Postgres schema holding the tenant's tables (null for the SQLite file). */
  schema: string | null;
  /** Role taken for each transaction; only hosted tenants on the shared cluster have one. */
  role: string | null;
  /** Encrypted connection string of the tenant's own database (BYODB), if connected. */
  byodbUrlEncrypted: string | null;
  /**
   * The key of the Postgres server holding the schema when it is not the control plane's own
   * database (one of `SERVICE_TENANT_DB_URLS`, `TenantServers`); null or absent: the control plane's.
   */
  server?: string | null;
}

/** What AsyncLocalStorage carries: a request opens it empty and learns its tenant once authenticated. */
interface TenantScope {
  tenant?: TenantContext;
  /** When the request must have been answered (epoch milliseconds); none outside requests. */
  deadline?: number;
  /** Its credential may only read (a read-scope API token): MCP refuses its tools that change state. */
  readOnly?: boolean;
  /** The person the request acts for: the signed-in account, or the account that made its API token. */
  actorAccountId?: string;
  /** The instance's admin identity behind the request (an admin's address, or `admin password`), when it has one. */
  adminActor?: string;
  /** What the request's answer waits for (beforeAnswer); shared with the tenant scopes opened inside the request. */
  answer?: AnswerHold;
}

/** Work a request's answer waits for, by key (each runs once), and whether the answer has started to leave. */
interface AnswerHold {
  /** Made on first use: most answers wait for nothing. */
  work?: Map<string, () => Promise<void>>;
  answered: boolean;
}

const storage = new AsyncLocalStorage<TenantScope>();

/** Runs `work` with `tenant` as the current tenant (requests, background jobs, pub/sub handlers). */
export function runWithTenant<T>(tenant: TenantContext, work: () => T): T {
  // Work done for a request (a domain event's handler) still holds that request's answer.
  const answer = storage.getStore()?.answer;
  return storage.run(answer ? { tenant, answer } : { tenant }, work);
}

/**
 * Runs `work` (the rest of an HTTP request's handling, which must end by
 * `deadline`) in a scope whose tenant is not known yet: the tenant guard sets it with `enterRequestTenant` once the
 * route is known to need one and the credentials are checked. Opening the
 * scope here rather than around the handler keeps per-request cost low.
 */
export function runInRequestScope<T>(work: () => T, deadline?: number): T {
  return storage.run({ deadline, answer: { answered: false } }, work);
}

/** The running request's scope itself (its deadline may move later), or undefined outside a request. */
export function requestScope(): { readonly deadline?: number } | undefined {
  return storage.getStore();
}

/** Whether the answer of the request whose scope this is has started to leave (settleBeforeAnswer, final). */
export function answerLeaving(scope: { readonly deadline?: number }): boolean {
  return (scope as TenantScope).answer?.answered === true;
}

/** When the running request must have been answered (epoch ms), or undefined outside a request. */
export function requestDeadline(): number | undefined {
  return storage.getStore()?.deadline;
}

/**
 * Moves the running request's deadline later, to `until` at the earliest: a long-poll that may
 * wait longer than a request's usual deadline, plus the time to answer after its wait.
 */
export function extendRequestDeadline(until: number): void {
  const scope = storage.getStore();
  if (scope?.deadline !== undefined && scope.deadline < until) scope.deadline = until;
}

/**
 * Holds the running request's answer until `work` has run: it runs once per `key` however often
 * it is asked for, when the answer is about to leave (`settleBeforeAnswer`), after everything the
 * handler wrote has committed. Answers false outside a request, or once its answer has started to
 * leave: the caller then runs `work` itself.
 */
export function beforeAnswer(key: string, work: () => Promise<void>): boolean {
  const answer = storage.getStore()?.answer;
  if (!answer || answer.answered) return false;
  (answer.work ??= new Map()).set(key, work);
  return true;
}

/**
 * Runs the work held for `scope`'s answer (that of the running request when omitted) and resolves
 * when all of it has finished, including work added meanwhile; never rejects (each work reports
 * its own failures). Undefined when nothing is held, so an answer with nothing to wait for pays
 * no extra turn. `final`: the answer is leaving now; work asked for later runs at once.
 */
export function settleBeforeAnswer(scope?: { readonly deadline?: number }, final = false): Promise<void> | undefined {
  const answer = ((scope ?? storage.getStore()) as TenantScope | undefined)?.answer;
  if (!answer) return undefined;
  if (final) answer.answered = true;
  const work = answer.work;
  if (!work?.size) return undefined;
  return (async () => {
    while (work.size > 0) {
      const held = [...work.values()];
      work.clear();
      await Promise.all(held.map((run) => run().catch(() => undefined)));
    }
  })();
}

/**
 * Sets the tenant of the running request, once; `readOnly` when its credential may only read,
 * `actorAccountId` the person it acts for when one is known.
 */
export function enterRequestTenant(tenant: TenantContext, access: { readOnly?: boolean; actorAccountId?: string } = {}): void {
  const scope = storage.getStore();
  if (!scope) throw new Error('No request scope: the tenant scope middleware must run before the tenant guard');
  if (scope.tenant && scope.tenant.tenantId !== tenant.tenantId) throw new Error('The tenant of a request cannot change');
  scope.tenant = tenant;
  if (access.readOnly) scope.readOnly = true;
  if (access.actorAccountId) scope.actorAccountId = access.actorAccountId;
}

/** Records that the running request comes from the instance's admin identity, named by `actor`. */
export function markRequestAdmin(actor: string): void {
  const scope = storage.getStore();
  if (scope) scope.adminActor = actor;
}

/** The admin identity behind the running request (see markRequestAdmin), if any. */
export function requestAdminActor(): string | undefined {
  return storage.getStore()?.adminActor;
}

/** The account the running request acts for (a signed-in person, or the maker of its API token), if known. */
export function requestActorAccountId(): string | undefined {
  return storage.getStore()?.actorAccountId;
}

/** Whether the running request's credential may only read; false outside requests. */
export function requestIsReadOnly(): boolean {
  return storage.getStore()?.readOnly === true;
}

/** The tenant of the running request or job. Throws when none was set: a bug, never a default. */
export function currentTenant(): TenantContext {
  const tenant = storage.getStore()?.tenant;
  if (!tenant) throw new Error('No tenant in context: wrap the work in runWithTenant or route it through the tenant guard');
  return tenant;
}

/** The current tenant, or undefined outside any tenant's work (public routes). */
export function maybeCurrentTenant(): TenantContext | undefined {
  return storage.getStore()?.tenant;
}
