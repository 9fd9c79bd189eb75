import { Plan } from '../../src/common/plans';
import { RunningBackend } from './backends';

/**
 * Puts every hosted tenant of a backend on `plan` (self-hosted has no plans:
 * nothing to do). The app remembers a plan for SERVICE_PLAN_CACHE_SECONDS:
 * start it with 0, or set the plan before the tenant's first request.
 */
export async function setPlan(run: RunningBackend, plan: Plan): Promise<void> {
  if (run.db && run.testApp.config.isHosted) await run.db.query('UPDATE control.tenants SET plan = $1', [plan]);
}
