import { Availability, AvailabilityChange, isDatabaseBusy, isDatabaseUnavailable } from './availability';
import { DatabaseBusyError } from './tenant-share';

describe('isDatabaseUnavailable', () => {
  test.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a server shutting down (57P01)', { driverError: { code: '57P01', message: 'terminating connection due to administrator command' } }],
    ['a statement timeout (57014)', { driverError: { code: '57014' } }],
    ['a connection exception class (08006)', { code: '08006' }],
    ['a connection ended under a query', new Error('Connection terminated unexpectedly')],
    ['the client giving up', new Error('Query read timeout')],
    ['no pool connection in time', new Error('timeout exceeded when trying to connect')],
    ['a runner whose connection died', new Error('Query runner already released. Cannot run queries anymore.')],
    [
      'a transaction whose connection died under it',
      Object.assign(new Error('Database connection provided by a query runner was already released'), { name: 'QueryRunnerProviderAlreadyReleasedError' }),
    ],
    ['a wrapped cause', { message: 'outer', cause: { code: 'ECONNRESET' } }],
  ])('%s is an outage', (_what, error) => expect(isDatabaseUnavailable(error)).toBe(true));

  test.each([
    ['a unique violation', { driverError: { code: '23505' } }],
    ['bad input', { driverError: { code: '22P02' } }],
    ['a bug', new TypeError('x is not a function')],
    ['nothing', undefined],
  ])('%s is not', (_what, error) => expect(isDatabaseUnavailable(error)).toBe(false));
});

describe('isDatabaseBusy', () => {
  test.each([
    ["a workspace's share of the pool taken for the whole wait", new DatabaseBusyError(5000)],
    ["SQLite's file locked past its busy timeout", { driverError: { code: 'SQLITE_BUSY', message: 'database is locked' } }],
    ["pg's pool full for its whole connect timeout", new Error('timeout exceeded when trying to connect')],
  ])('%s is busy, and may be tried again', (_what, error) => {
    expect(isDatabaseBusy(error)).toBe(true);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  test.each([
    ['a refused connection', { code: 'ECONNREFUSED' }],
    ['a statement timeout (57014)', { driverError: { code: '57014' } }],
    ['a connection that could not be opened in time', new Error('Connection terminated due to connection timeout')],
    ['a unique violation', { driverError: { code: '23505' } }],
  ])('%s is not', (_what, error) => expect(isDatabaseBusy(error)).toBe(false));
});

describe('Availability', () => {
  test('an outage is reported once when found and once when over, with the failures it caused', async () => {
    const changes: AvailabilityChange[] = [];
    const availability = new Availability((change) => changes.push(change));
    const down = () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    await availability.watch('shared', Promise.resolve(1));
    for (let i = 0; i < 20; i++) await availability.watch('shared', down()).catch(() => undefined);
    await availability.watch('shared', Promise.reject(new Error('a bug'))).catch(() => undefined);
    expect(availability.isDown('shared')).toBe(true);
    expect(changes).toEqual([{ state: 'down', database: 'shared', reason: 'connect ECONNREFUSED' }]);
    await availability.watch('tenant-1', Promise.resolve(2)); // another database answering says nothing of this one
    expect(availability.isDown('shared')).toBe(true);
    await expect(availability.watch('shared', Promise.resolve(3))).resolves.toBe(3);
    expect(changes).toHaveLength(2);
    expect(changes[1]).toMatchObject({ state: 'up', database: 'shared', failures: 20 });
    expect(availability.isDown('shared')).toBe(false);
  });

  test('a busy database is no outage: nothing is reported and it is not marked down', async () => {
    const changes: AvailabilityChange[] = [];
    const availability = new Availability((change) => changes.push(change));
    for (let i = 0; i < 5; i++) await availability.watch('tenant-1', Promise.reject(new DatabaseBusyError(4000))).catch(() => undefined);
    expect(availability.isDown('tenant-1')).toBe(false);
    expect(changes).toEqual([]);
  });
});
