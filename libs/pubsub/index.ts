export { Availability, AVAILABILITY_STATES, AvailabilityTracker, Transition, TRANSITIONS } from './availability';
export { CoalescedPoll, CoalescedPollOptions, Gate, Probe, ProbeResult } from './coalesced-poll';
export { BUDGET_TTL_SECONDS, budgetCountKey, BudgetStatus, BudgetThresholds, BudgetTier, monthOf, PushBudget } from './budget';
export { PublishCounters, PublishStats } from './publish-counters';
export { Envelope, ErrorMark, errorClass, PublishOutcome, reconnectDelay, RedisPush, RedisPushOptions } from './redis-push';
export { TenantVersions, VERSION_TTL_SECONDS, versionKey } from './tenant-versions';
export { longPoll, LongPollOptions, Waiter, WakeRegistry } from './wake-registry';
