import { OVERAGE_PRICES_USD, Plan, PLAN_ALLOWANCES, PLAN_PRICES_USD_MONTHLY, PLAN_USAGE_INCLUDED, PLANS } from '../../common/plans';

const NAMES: Record<Plan, string> = { free: 'Free', paid: 'Paid' };

/** What a plan allows, in words, from its allowance (src/common/plans.ts): the page cannot disagree with what Baton enforces. */
function allows(plan: Plan): string[] {
  const a = PLAN_ALLOWANCES[plan];
  const usage = PLAN_USAGE_INCLUDED[plan];
  return [
    'Projects, goals, sprints, sessions, handoffs and questions over REST and MCP',
    a.pushMessaging ? 'Messages pushed to waiting assistants at once' : 'Messages delivered by polling (no push)',
    a.queuedAssistantTasks ? 'Queued assistant tasks on your registered machines' : 'No queued assistant tasks',
    `Up to ${a.maxRegisteredMachines} registered machines, ${a.maxSlotsPerMachine} runs at once on each`,
    `${usage.toolCalls.toLocaleString('en')} tool calls and ${usage.runMinutes.toLocaleString('en')} run minutes a month, ${usage.storageBytes / 1e9} GB of storage`,
  ];
}

/**
 * The inner HTML of /pricing. `upgrade`: checkout is configured (hosted), so the paid plan has a
 * button; it leads to the dashboard's plan view, which knows the person's workspace (this page is
 * the same for everyone and cached) and offers the checkout to a free one.
 */
export function renderPricing(upgrade = false): string {
  const cards = PLANS.map((plan) => {
    const price = PLAN_PRICES_USD_MONTHLY[plan];
    return `<section class="card" aria-labelledby="plan-${plan}">
<h2 id="plan-${plan}">${NAMES[plan]}</h2>
<p><strong style="font-size:1.6rem">$${price}</strong> ${price === 0 ? 'forever' : 'a month per workspace'}</p>
<ul>${allows(plan)
      .map((line) => `<li>${line}</li>`)
      .join('')}</ul>${plan === 'paid' && upgrade ? '\n<p><a class="button" href="/dashboard/plan">Upgrade your workspace</a></p>' : ''}
</section>`;
  });
  return `<h1>Pricing</h1>
<p class="lede">One workspace, your whole team. Self-hosted Baton is free and has everything the paid plan has.</p>
<div class="cards">${cards.join('\n')}</div>
<p class="muted">Past what a plan includes, compute costs $${OVERAGE_PRICES_USD.perThousandToolCalls.toFixed(2)} per 1,000 tool calls and $${OVERAGE_PRICES_USD.perRunMinute.toFixed(2)} per run minute, up to the cap the workspace sets; none is spent until it sets one.</p>`;
}
