import { runWithTenant, TenantContext, TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { PLAN_USAGE_INCLUDED } from '../../common/plans';
import { AppConfig } from '../../config/app-config';
import { ToolCallGates } from '../../mcp/tool-call-gates';
import { TenantPlans } from '../push/tenant-plans.service';
import { UsageMeter } from './usage-meter.service';

const TENANT: TenantContext = { tenantId: 't1', schema: 't_1', role: null, byodbUrlEncrypted: null };

/**
 * A workspace whose tool calls and storage the test sets, over a database stand-in that counts
 * what the meter reads and can hold a measurement until the test lets it finish.
 */
function meterOf() {
  const state = {
    toolCalls: 0,
    storageBytes: 1000,
    countReads: 0,
    storageReads: 0,
    capsRow: null as null | { compute_overage_cap_usd: number | null; storage_overage_cap_gb: number | null },
  };
  let hold: Promise<void> | undefined;
  let failNext = false;
  const manager = {
    count: async () => {
      state.countReads++;
      const seen = state.toolCalls;
      await hold;
      if (failNext) {
        failNext = false;
        throw new Error('database away');
      }
      return seen;
    },
    find: async () => [],
    findOneBy: async () => state.capsRow,
    query: async () => {
      state.storageReads++;
      return [{ bytes: state.storageBytes }];
    },
  };
  const db = { dialect: 'postgres', read: (work: (m: typeof manager) => Promise<unknown>) => work(manager) } as unknown as TenantDb;
  const plans = { planOf: async () => ({ plan: 'free', fresh: false }) } as unknown as TenantPlans;
  let gate: (tool: { readOnly: boolean }) => void | Promise<void> = () => undefined;
  const gates = { register: (_name: string, check: typeof gate) => (gate = check) } as unknown as ToolCallGates;
  const meter = new UsageMeter({ isHosted: true } as AppConfig, db, new Clock(), plans, gates);
  meter.onModuleInit();
  const inTenant = <T>(work: () => Promise<T>, tenant = TENANT) => runWithTenant(tenant, work);
  return {
    meter,
    state,
    /** The tool-call gate's answer for a workspace (the first by default): 'ok' or the refusal's code. */
    callTool: (tenant = TENANT) =>
      inTenant(async () => {
        try {
          await gate({ readOnly: true });
          return 'ok';
        } catch (error) {
          return (error as { code?: string }).code ?? String(error);
        }
      }, tenant),
    /** Reads begun from now on wait until the returned function is called. */
    holdReads() {
      let release!: () => void;
      hold = new Promise<void>((r) => (release = r));
      return () => {
        hold = undefined;
        release();
      };
    },
    /** Reads begun from now on go through; those held stay held. */
    holdNoMore: () => (hold = undefined),
    failNextRead: () => (failNext = true),
    measure: () => inTenant(() => meter.measure('free', state.capsRow ?? { compute_overage_cap_usd: null, storage_overage_cap_gb: null })),
  };
}

const OVER = PLAN_USAGE_INCLUDED.free.toolCalls + 1;
const settle = () => new Promise((r) => setImmediate(r));

/**
 * Tool calls answered while the one measurement they queue is held (checked: exactly one count
 * read begins); resolves with their answers once it has landed.
 */
async function callsWhileMeasuring(w: ReturnType<typeof meterOf>, calls: number): Promise<string[]> {
  const reads = w.state.countReads;
  const release = w.holdReads();
  const answers = await Promise.all(Array.from({ length: calls }, () => w.callTool()));
  await settle();
  expect(w.state.countReads).toBe(reads + 1);
  release();
  await settle();
  return answers;
}

describe('UsageMeter: the caps go by a measurement kept fresh off the request path', () => {
  let now = 1_000_000;
  beforeEach(() => {
    now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
  });
  afterEach(() => jest.restoreAllMocks());

  test("a workspace's first requests on an instance wait for nothing: they queue one measurement, and the caps hold once it lands", async () => {
    const w = meterOf();
    w.state.toolCalls = OVER;
    expect(await callsWhileMeasuring(w, 3)).toEqual(['ok', 'ok', 'ok']);
    expect(await w.callTool()).toBe('COMPUTE_CAP_REACHED');
    expect(w.state.countReads).toBe(1);
  });

  test('past the interval a request goes by the last measurement at once and queues one new measurement', async () => {
    const w = meterOf();
    await w.callTool();
    await settle();
    w.state.toolCalls = OVER;
    now += 29_000;
    expect(await w.callTool()).toBe('ok');
    expect(w.state.countReads).toBe(1);
    now += 2_000;
    // Answered while the new measurement is held: by the last one.
    expect(await callsWhileMeasuring(w, 2)).toEqual(['ok', 'ok']);
    expect(await w.callTool()).toBe('COMPUTE_CAP_REACHED');
    expect(w.state.countReads).toBe(2);
  });

  test('storage is measured again only after its own, longer interval', async () => {
    const w = meterOf();
    await w.callTool();
    await settle();
    for (let i = 0; i < 5; i++) {
      now += 31_000;
      await w.callTool();
      await settle();
    }
    expect([w.state.countReads, w.state.storageReads]).toEqual([6, 1]);
    now += 5 * 60_000;
    await w.callTool();
    await settle();
    expect(w.state.storageReads).toBe(2);
  });

  test('the settings answer measures at once and the caps go by it; a background measurement that began earlier does not undo it', async () => {
    const w = meterOf();
    w.state.toolCalls = OVER;
    expect((await w.measure()).compute_blocked).toBe(true);
    expect(await w.callTool()).toBe('COMPUTE_CAP_REACHED');
    now += 31_000;
    const release = w.holdReads();
    expect(await w.callTool()).toBe('COMPUTE_CAP_REACHED'); // queues a measurement, held with the old caps read
    await settle();
    // The person raises the cap; the settings answer measures with it, and lands first.
    w.state.capsRow = { compute_overage_cap_usd: 100, storage_overage_cap_gb: null };
    w.holdNoMore();
    expect((await w.measure()).compute_blocked).toBe(false);
    expect(await w.callTool()).toBe('ok');
    release();
    await settle();
    await settle();
    expect(await w.callTool()).toBe('ok');
  });

  test('a measurement that fails keeps what was known and is tried again after the interval, not on every request', async () => {
    const w = meterOf();
    w.failNextRead();
    expect(await w.callTool()).toBe('ok');
    await settle();
    expect(await w.callTool()).toBe('ok');
    await settle();
    expect(w.state.countReads).toBe(1);
    w.state.toolCalls = OVER;
    now += 31_000;
    await w.callTool();
    await settle();
    expect(await w.callTool()).toBe('COMPUTE_CAP_REACHED');
    expect(w.state.countReads).toBe(2);
    now += 31_000;
    w.failNextRead();
    w.state.toolCalls = 0;
    await w.callTool();
    await settle();
    expect(await w.callTool()).toBe('COMPUTE_CAP_REACHED');
    expect(w.state.countReads).toBe(3);
  });

  test('stopping waits for the measurement under way, and skips those queued behind it', async () => {
    const w = meterOf();
    const release = w.holdReads();
    for (let i = 1; i <= 3; i++) await w.callTool({ ...TENANT, tenantId: `t${i}` });
    await settle();
    expect(w.state.countReads).toBe(1);
    let stopped = false;
    const stopping = w.meter.onApplicationShutdown().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(w.state.countReads).toBe(1);
  });
});
