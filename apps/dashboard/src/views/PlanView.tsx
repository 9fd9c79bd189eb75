import type { UsageSettings } from '../api/types';
import { api } from '../api/client';
import { useLive } from '../live/use-live';

const number = (n: number) => n.toLocaleString('en');
const bytes = (n: number) => (n >= 1e9 ? `${(n / 1e9).toFixed(2)} GB` : `${(n / 1e6).toFixed(1)} MB`);
const TIERS: Record<string, string> = {
  ok: 'within budget',
  warning: 'warning: over half of the budget is used',
  disabled: 'paused: messages are delivered by polling until the budget resets',
  admin_alert: 'paused: the operator has been alerted',
};

/** The workspace's plan, this month's usage against what the plan includes, the push budget, the upgrade button and the full SQLite export. */
export function PlanView() {
  const usage = useLive(
    'usage',
    () => api<UsageSettings>('GET', '/settings/usage'),
    (u) => u,
    // The budget's notices arrive as events; the figures are read again then.
    (frame) => frame.event === 'push_budget_warning' || frame.event === 'push_budget_exhausted',
  );
  const u = usage.data;
  return (
    <section aria-labelledby="plan-heading">
      <h1 id="plan-heading">Plan and data</h1>
      {usage.error && <p role="alert">Could not load the usage: {usage.error}</p>}
      {!u && !usage.error && <p>Loading…</p>}
      {u && (
        <>
          <section class="panel" aria-labelledby="usage-heading">
            <h2 id="usage-heading">Usage in {u.usage.month}</h2>
            <p>
              Plan: <strong>{u.plan}</strong>
              {!u.usage.enforced && ' (self-hosted: nothing is capped)'}
            </p>
            {u.upgrade_url && (
              <p>
                <a class="button" href={u.upgrade_url}>
                  Upgrade to the paid plan
                </a>
              </p>
            )}
            {(u.usage.compute_blocked || u.usage.storage_blocked) && (
              <p role="alert">
                {u.usage.compute_blocked ? 'Tool calls are refused until next month: the included compute and the overage cap are used up. ' : ''}
                {u.usage.storage_blocked ? 'Writes are refused: the included storage and the overage cap are used up.' : ''}
              </p>
            )}
            <dl class="figures" aria-label="Usage this month">
              <dt>Tool calls</dt>
              <dd>
                {number(u.usage.tool_calls)} of {number(u.usage.included.tool_calls)} included
              </dd>
              <dt>Run minutes</dt>
              <dd>
                {number(u.usage.run_minutes)} of {number(u.usage.included.run_minutes)} included
              </dd>
              <dt>Storage</dt>
              <dd>
                {bytes(u.usage.storage_bytes)} of {bytes(u.usage.included.storage_bytes)} included
              </dd>
              <dt>Compute overage</dt>
              <dd>
                ${u.usage.compute_overage_usd.toFixed(2)}
                {u.compute_overage_cap_usd === null ? ' (no overage allowed)' : ` of a $${u.compute_overage_cap_usd} cap`}
              </dd>
            </dl>
          </section>
          <section class="panel" aria-labelledby="budget-heading">
            <h2 id="budget-heading">Push budget</h2>
            {u.push_budget ? (
              <dl class="figures" aria-label="Push budget">
                <dt>Used</dt>
                <dd>
                  {number(u.push_budget.used)} of {number(u.push_budget.limit)} push commands
                </dd>
                <dt>Status</dt>
                <dd>{TIERS[u.push_budget.tier] ?? u.push_budget.tier}</dd>
                <dt>Resets</dt>
                <dd>
                  <time dateTime={u.push_budget.resets_at}>{new Date(u.push_budget.resets_at).toLocaleString()}</time>
                </dd>
              </dl>
            ) : (
              <p>{u.usage.enforced ? 'Live push is part of the paid plan; this workspace is kept up to date by polling.' : 'A self-hosted Baton has no push budget.'}</p>
            )}
          </section>
        </>
      )}
      <section class="panel" aria-labelledby="export-heading">
        <h2 id="export-heading">The workspace's data</h2>
        <p>A SQLite file with every table and row of this workspace, taken at one moment while work goes on. Only an owner may download it, a few times an hour.</p>
        <p>
          <a class="button" href="/export/sqlite" download>
            Download the workspace as SQLite
          </a>
        </p>
      </section>
    </section>
  );
}
