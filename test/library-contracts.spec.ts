/**
 * Contracts with library internals Baton relies on (docs/decisions.md, "Library internals").
 *
 * Each package here is pinned to an exact version in package.json. When one is updated, these
 * tests say, by name, which private shape or behaviour Baton leans on has changed, before any
 * feature test fails in a way that hides why. Fix the code that relies on it (or drop the reach)
 * before moving the pin.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type AddressInfo, createServer, Socket } from 'node:net';
import { join } from 'node:path';
import { CallHandler, Controller, ExecutionContext, Get, Module, NestInterceptor, Post, RequestMethod } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Server as HttpServer } from 'node:http';
import { Exclude, Expose, plainToInstance, Transform, TransformationType, Type } from 'class-transformer';
import { IsIn, IsInt, IsNumber, IsOptional, IsString, Max, getMetadataStorage, validate, ValidateNested, ValidationTypes } from 'class-validator';
import { Client, Pool, Query } from 'pg';
import { Column, DataSource, Entity, PrimaryColumn, QueryRunner } from 'typeorm';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolResultSchema, GetTaskPayloadRequestSchema, RELATED_TASK_META_KEY, type Task } from '@modelcontextprotocol/sdk/types.js';
import { isDatabaseBusy, isDatabaseUnavailable } from '../libs/tenancy/availability';
import { ScopedRead } from '../libs/tenancy/scoped-read';
import { interceptWriteRoutes } from '../src/common/http/write-route-interceptor';
import { classTransformerMetadata } from '../src/common/validation/class-transformer-storage';
import { timedQuery } from '../libs/tenancy/timed-query';
import { PG_ADMIN_URL } from './support/services';
import { sleep } from './support/wait';

const ROOT = join(__dirname, '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };

/** Runs `check`; a failure names the library, its version and what Baton relies on. */
function contract(pkg: string, what: string, check: () => void): void {
  try {
    check();
  } catch (error) {
    throw new Error(`${pkg} ${installedVersion(pkg)} no longer matches what Baton relies on: ${what}\n${(error as Error).message}`, { cause: error });
  }
}

async function contractAsync(pkg: string, what: string, check: () => Promise<void>): Promise<void> {
  try {
    await check();
  } catch (error) {
    throw new Error(`${pkg} ${installedVersion(pkg)} no longer matches what Baton relies on: ${what}\n${(error as Error).message}`, { cause: error });
  }
}

function installedVersion(pkg: string): string {
  return (JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
}

describe('pinned packages', () => {
  test.each([
    'pg',
    'typeorm',
    'class-validator',
    'class-transformer',
    '@opentelemetry/otlp-transformer',
    '@modelcontextprotocol/sdk',
    '@nestjs/common',
    '@nestjs/core',
    'prom-client',
  ])('%s is pinned to an exact version, and that version is installed', (pkg) => {
    const spec = manifest.dependencies[pkg];
    expect(spec).toMatch(/^\d+\.\d+\.\d+$/);
    expect(installedVersion(pkg)).toBe(spec);
  });
});

describe('pg internals (libs/tenancy/scoped-read.ts, read-lanes.ts)', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const utils = require('pg/lib/utils') as { prepareValue?: (value: unknown) => unknown };

  test("pg/lib/utils prepareValue converts values to a parameter's text as pg binds them", () => {
    contract('pg', "require('pg/lib/utils').prepareValue(value) gives the text (or Buffer, or null) pg sends for a bound value", () => {
      expect(typeof utils.prepareValue).toBe('function');
      const prepare = utils.prepareValue as (value: unknown) => unknown;
      expect(prepare(null)).toBeNull();
      expect(prepare(undefined)).toBeNull();
      expect(prepare(42)).toBe('42');
      expect(prepare(true)).toBe('true');
      expect(prepare('text')).toBe('text');
      expect(prepare(['a', 'b"c'])).toBe('{"a","b\\"c"}');
      expect(prepare({ k: 'v' })).toBe('{"k":"v"}');
      const bytes = Buffer.from([0, 255]);
      expect(prepare(bytes)).toBe(bytes);
      expect(prepare(new Date('2026-01-02T03:04:05.678Z'))).toMatch(/^2026-01-0\dT\d\d:04:05\.678[+-]\d\d:\d\d$/);
    });
  });

  test('Query keeps text and values as fields, has no name unless given, and reports errors through its callback', () => {
    contract('pg', 'new Query(text, values) sets .text/.values, leaves .name unset; handleError(error) calls .callback(error)', () => {
      const query = new (Query as unknown as new (text: string, values?: unknown[]) => Record<string, unknown>)('SELECT $1', [1]);
      expect(query.text).toBe('SELECT $1');
      expect(query.values).toEqual([1]);
      expect(query.name).toBeUndefined();
      for (const method of ['submit', 'handleRowDescription', 'handleDataRow', 'handleCommandComplete', 'handleEmptyQuery', 'handleReadyForQuery', 'handleError']) {
        expect(typeof (Query.prototype as unknown as Record<string, unknown>)[method]).toBe('function');
      }
      let reported: unknown;
      query.callback = (error: unknown) => (reported = error);
      const failure = new Error('boom');
      (query.handleError as (error: Error, connection: unknown) => void).call(query, failure, null);
      expect(reported).toBe(failure);
    });
  });

  describe('on a live connection', () => {
    let client: Client;
    beforeAll(async () => {
      client = new Client({ connectionString: PG_ADMIN_URL });
      await client.connect();
    });
    afterAll(() => client.end());

    test('a connected client exposes its socket and the extended-protocol writers, and pipelines when its pipeline flag is set', () => {
      contract('pg', 'client.connection.stream is the socket; connection.parse/bind/describe/execute/close/sync exist; client.pipeline is a writable field', () => {
        const connection = client.connection as unknown as Record<string, unknown>;
        expect(connection.stream).toBeInstanceOf(Socket);
        for (const writer of ['parse', 'bind', 'describe', 'execute', 'close', 'sync']) expect(typeof connection[writer]).toBe('function');
        const flag = Object.getOwnPropertyDescriptor(client, 'pipeline');
        expect(flag).toMatchObject({ writable: true, value: false });
      });
    });

    test('a pipelined client refuses a submittable that is not a Query, so ScopedRead must extend Query', async () => {
      await contractAsync('pg', "a pipelined client refuses custom submittables that are not instances of pg's Query", async () => {
        const pipelined = client as unknown as { pipeline: boolean };
        pipelined.pipeline = true;
        try {
          const error = await new Promise<Error | undefined>((resolve) => {
            client.query({ submit: () => resolve(undefined), handleError: (e: Error) => resolve(e) } as never);
          });
          expect(error?.message).toMatch(/not supported in pipeline mode/);
        } finally {
          pipelined.pipeline = false;
        }
      });
    });

    test('a query config may carry its own query_timeout: the query fails after it, and on a pipelined client the connection is dropped', async () => {
      await contractAsync('pg', "client.query({text, query_timeout}) fails with 'Query read timeout' after query_timeout ms; in pipeline mode pg destroys the socket", async () => {
        const own = new Client({ connectionString: PG_ADMIN_URL });
        await own.connect();
        own.on('error', () => undefined);
        try {
          const started = Date.now();
          await expect(timedQuery(own, 'SELECT pg_sleep(2)', undefined, 200)).rejects.toThrow('Query read timeout');
          expect(Date.now() - started).toBeLessThan(1500);
          (own as unknown as { pipeline: boolean }).pipeline = true;
          await expect(timedQuery(own, 'SELECT pg_sleep(2)', undefined, 200)).rejects.toThrow('Query read timeout');
          await sleep(50);
          expect((own.connection as unknown as { stream: Socket }).stream.destroyed).toBe(true);
        } finally {
          await own.end().catch(() => undefined);
        }
      });
    });

    test('a pipelined client sends a transaction opening and a bound statement at once; a failed opening fails the statement', async () => {
      await contractAsync('pg', 'with client.pipeline set, queries are written without waiting for the previous answer and each gets its own result or error', async () => {
        const pipelined = client as unknown as { pipeline: boolean };
        pipelined.pipeline = true;
        try {
          const [opened, read] = await Promise.all([client.query('BEGIN; SET LOCAL search_path TO public'), client.query('SELECT $1::int AS n', [5])]);
          expect(Array.isArray(opened)).toBe(true);
          expect(read.rows).toEqual([{ n: 5 }]);
          await client.query('ROLLBACK');
          const outcomes = await Promise.allSettled([client.query('BEGIN; SET LOCAL ROLE baton_contract_no_such_role'), client.query('SELECT $1::int AS n', [5])]);
          expect(outcomes[0]).toMatchObject({ status: 'rejected', reason: { code: '22023' } });
          expect(outcomes[1]).toMatchObject({ status: 'rejected', reason: { code: '25P02' } });
          await client.query('ROLLBACK');
        } finally {
          pipelined.pipeline = false;
        }
      });
    });

    test('a named statement whose first run fails in an aborted pipelined transaction is prepared again at its next run', async () => {
      await contractAsync('pg', 'a named query that Postgres refused is forgotten by the client (submittedNamedStatements), so its next run parses it again', async () => {
        const pipelined = client as unknown as { pipeline: boolean };
        pipelined.pipeline = true;
        const named = { name: 'baton_contract_named', text: 'SELECT $1::int AS n', values: [7] };
        try {
          const outcomes = await Promise.allSettled([client.query('BEGIN; SET LOCAL ROLE baton_contract_no_such_role'), client.query(named), client.query('ROLLBACK')]);
          expect(outcomes[1]).toMatchObject({ status: 'rejected', reason: { code: '25P02' } });
          const [, again] = await Promise.all([client.query('BEGIN'), client.query(named), client.query('COMMIT')]);
          expect(again.rows).toEqual([{ n: 7 }]);
          expect((await client.query(named)).rows).toEqual([{ n: 7 }]);
        } finally {
          pipelined.pipeline = false;
        }
      });
    });

    test('the client hands the active query the messages of its answer: row description, rows, command tags, ready', async () => {
      await contractAsync(
        'pg',
        'the client calls handleRowDescription({fields}), handleDataRow({fields}), handleCommandComplete({text}), handleReadyForQuery() on the query it submitted',
        async () => {
          const seen: string[] = [];
          const PgQuery = Query as unknown as new (text: string) => { submit(connection: unknown): void; callback?: (error: Error | null) => void };
          class Probe extends PgQuery {
            override submit(connection: unknown) {
              const c = connection as { query(text: string): void };
              c.query('SELECT 1::int AS one, NULL::text AS nothing');
            }
            handleRowDescription(message: { fields: { name: string; dataTypeID: number; format: string }[] }) {
              seen.push(`fields ${message.fields.map((f) => `${f.name}:${f.dataTypeID}:${f.format}`).join(',')}`);
            }
            handleDataRow(message: { fields: (string | null)[] }) {
              seen.push(`row ${JSON.stringify(message.fields)}`);
            }
            handleCommandComplete(message: { text: string }) {
              seen.push(`tag ${message.text}`);
            }
            handleReadyForQuery() {
              seen.push('ready');
              this.callback?.(null);
            }
          }
          const probe = new Probe('unused');
          await new Promise<void>((resolve, reject) => {
            probe.callback = (error) => (error ? reject(error) : resolve());
            client.query(probe as never);
          });
          expect(seen).toEqual(['fields one:23:text,nothing:25:text', 'row ["1",null]', 'tag SELECT 1', 'ready']);
        },
      );
    });

    test('ScopedRead reads rows, types and command tags on a pipelined connection', async () => {
      await contractAsync('pg', 'ScopedRead (a Query subclass writing Parse/Bind/Describe/Execute/Sync itself) on a pipelined client', async () => {
        const pipelined = client as unknown as { pipeline: boolean };
        pipelined.pipeline = true;
        try {
          const read = (text: string, values: unknown[]) =>
            new Promise<unknown>((resolve, reject) => {
              const query = new ScopedRead({ searchPath: 'public', role: null, statementTimeout: '0' }, text, values, client);
              query.callback = (error, result) => (error ? reject(error) : resolve(result));
              client.query(query as never);
            });
          const [first, second] = await Promise.all([
            read('SELECT $1::int AS n, $2::timestamptz AS t, $3::text[] AS a', [7, new Date('2026-01-02T03:04:05Z'), ['x', 'y']]),
            read('SELECT g FROM generate_series(1, $1::int) g', [3]),
          ]);
          expect(first).toMatchObject({ command: 'SELECT', rowCount: 1, rows: [{ n: 7, t: new Date('2026-01-02T03:04:05Z'), a: ['x', 'y'] }] });
          expect(second).toMatchObject({ command: 'SELECT', rowCount: 3, rows: [{ g: 1 }, { g: 2 }, { g: 3 }] });
        } finally {
          pipelined.pipeline = false;
        }
      });
    });
  });
});

const TABLE = `contract_${randomBytes(4).toString('hex')}`;

@Entity(TABLE)
class Thing {
  @PrimaryColumn('text')
  id!: string;

  @Column('text')
  label!: string;
}

describe("pg's pool errors (libs/tenancy/availability.ts)", () => {
  test('a checkout queued behind a full pool is told apart from a connection that could not be opened in time', async () => {
    await contractAsync('pg', "pg-pool says 'timeout exceeded when trying to connect' only of a checkout that waited behind connections in use", async () => {
      const full = new Pool({ connectionString: PG_ADMIN_URL, max: 1, connectionTimeoutMillis: 200 });
      const held = await full.connect();
      try {
        const queued = await full.connect().catch((error: unknown) => error);
        expect(isDatabaseBusy(queued)).toBe(true);
      } finally {
        held.release();
        await full.end();
      }
      // A server that takes the connection and never answers: the client's own connect timeout.
      const silent = createServer(() => undefined);
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const unanswered = new Pool({ host: '127.0.0.1', port: (silent.address() as AddressInfo).port, user: 'baton', max: 1, connectionTimeoutMillis: 200 });
      try {
        const failed = await unanswered.connect().catch((error: unknown) => error);
        expect(isDatabaseBusy(failed)).toBe(false);
        expect(isDatabaseUnavailable(failed)).toBe(true);
      } finally {
        await unanswered.end();
        silent.close();
      }
    });
  });
});

describe('TypeORM internals (libs/tenancy/tenant-db.ts)', () => {
  let source: DataSource;
  beforeAll(async () => {
    source = new DataSource({ type: 'postgres', url: PG_ADMIN_URL, poolSize: 3, entities: [Thing], synchronize: false, logging: false });
    await source.initialize();
    await source.query(`CREATE TABLE "${TABLE}" (id text PRIMARY KEY, label text NOT NULL)`);
  });
  afterAll(async () => {
    await source.query(`DROP TABLE IF EXISTS "${TABLE}"`);
    await source.destroy();
  });

  test("the Postgres driver's pool is pg's Pool, in `driver.master`, sized by the data source's poolSize", () => {
    contract('typeorm', 'PostgresDriver.master is the pg Pool every query runner takes its connection from', () => {
      const master = (source.driver as unknown as { master?: unknown }).master;
      expect(master).toBeInstanceOf(Pool);
      expect((master as Pool).options.max).toBe(3);
    });
  });

  /** A query runner whose statements go to `sent` (and on to a real pool connection). */
  async function routed(runner: QueryRunner, sent: string[]) {
    const client = (await runner.connect()) as Client;
    const recorder = {
      query(text: string, values?: unknown[]) {
        sent.push(text);
        return client.query(text, values);
      },
    };
    (runner as unknown as { connect: () => Promise<unknown> }).connect = () => Promise.resolve(recorder);
  }

  test('a query runner reaches its connection only through its own connect(), so replacing it on the instance routes every statement', async () => {
    await contractAsync('typeorm', 'PostgresQueryRunner.query() (and the entity manager and query builders through it) call this.connect() for the connection', async () => {
      const runner = source.createQueryRunner();
      const sent: string[] = [];
      try {
        await routed(runner, sent);
        await runner.query('SELECT 1');
        await runner.manager.findOneBy(Thing, { id: 'none' });
        await runner.manager.createQueryBuilder(Thing, 't').where('t.label = :label', { label: 'x' }).getMany();
        expect(sent).toHaveLength(3);
        expect(sent[0]).toBe('SELECT 1');
        expect(sent[1]).toContain(TABLE);
        expect(sent[2]).toContain(TABLE);
      } finally {
        await runner.release();
      }
    });
  });

  test('a query runner hands pg only text and values, never a named prepared statement (SERVICE_DB_PREPARED_STATEMENTS=off behind a pooler)', async () => {
    await contractAsync('typeorm', "PostgresQueryRunner.query() calls the connection's query(text, values): no query config, so no statement name", async () => {
      const runner = source.createQueryRunner();
      const client = (await runner.connect()) as Client;
      const calls: unknown[][] = [];
      const recorder = {
        query(...args: unknown[]) {
          calls.push(args);
          return (client.query as (...a: unknown[]) => Promise<unknown>)(...args);
        },
      };
      (runner as unknown as { connect: () => Promise<unknown> }).connect = () => Promise.resolve(recorder);
      try {
        await runner.manager.save(Thing, { id: 'named', label: 'one' });
        await runner.manager.findOneBy(Thing, { id: 'named' });
        await runner.manager.createQueryBuilder().update(Thing).set({ label: 'two' }).where('id = :id', { id: 'named' }).execute();
        await runner.manager.delete(Thing, { id: 'named' });
        expect(calls.length).toBeGreaterThanOrEqual(4);
        for (const [text, values] of calls) {
          expect(typeof text).toBe('string');
          expect(values === undefined || Array.isArray(values)).toBe(true);
        }
      } finally {
        await runner.release();
      }
    });
  });

  test("a query runner's private releasePostgresConnection(error) hands the error to pg's release, so the pool drops the connection", async () => {
    await contractAsync('typeorm', 'PostgresQueryRunner.releasePostgresConnection(err) calls the pool release with err (pg-pool then removes the client)', async () => {
      const pool = (source.driver as unknown as { master: Pool }).master;
      const runner = source.createQueryRunner();
      const client = (await runner.connect()) as Client & { processID: number };
      const before = pool.totalCount;
      await (runner as unknown as { releasePostgresConnection(error?: Error): Promise<void> }).releasePostgresConnection(new Error('dropped'));
      expect(runner.isReleased).toBe(true);
      expect(pool.totalCount).toBe(before - 1);
      const next = source.createQueryRunner();
      const other = (await next.connect()) as Client & { processID: number };
      expect(other.processID).not.toBe(client.processID);
      await next.release();
    });
  });

  test('a query runner marked as in a transaction (isTransactionActive, transactionDepth) opens none of its own for save() and uses savepoints when nested', async () => {
    await contractAsync('typeorm', 'isTransactionActive and transactionDepth are writable fields of a query runner that save() and transaction() read', async () => {
      const runner = source.createQueryRunner();
      const sent: string[] = [];
      try {
        await routed(runner, sent);
        const state = runner as unknown as Record<string, unknown>;
        expect(state.isTransactionActive).toBe(false);
        expect(state.transactionDepth).toBe(0);
        await runner.query('BEGIN');
        state.isTransactionActive = true;
        state.transactionDepth = 1;
        await runner.manager.save(Thing, { id: 'a', label: 'one' });
        await runner.manager.transaction((m) => m.save(Thing, { id: 'b', label: 'two' }));
        await runner.query('ROLLBACK');
        const control = sent.filter((s) => /^(START|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)/i.test(s));
        expect(control[0]).toBe('BEGIN');
        expect(control.slice(1, -1).every((s) => /^(SAVEPOINT|RELEASE)/i.test(s))).toBe(true);
        expect(control.filter((s) => /^SAVEPOINT/i.test(s))).toHaveLength(1);
        expect(control[control.length - 1]).toBe('ROLLBACK');
      } finally {
        await runner.release();
      }
    });
  });
});

describe('Nest route metadata (src/common/http/write-route-interceptor.ts)', () => {
  test("a route decorator records its method, and interceptors written into a handler's metadata after the application is created, before it listens, run on that route only", async () => {
    await contractAsync(
      '@nestjs/core',
      "METHOD_METADATA ('method') holds a route's RequestMethod and PATH_METADATA ('path') the controller's and the handler's paths; INTERCEPTORS_METADATA ('__interceptors__') of a handler is read when routes are registered in init(), an object with intercept() used as it is, before the route's own",
      async () => {
        const seen: string[] = [];
        const tagged = (tag: string): NestInterceptor => ({
          intercept(_context: ExecutionContext, next: CallHandler) {
            seen.push(tag);
            return next.handle();
          },
        });
        class Probe {
          read() {
            return { read: true };
          }
          write() {
            return { written: true };
          }
        }
        Controller('probe')(Probe);
        Get()(Probe.prototype, 'read', Object.getOwnPropertyDescriptor(Probe.prototype, 'read')!);
        Post()(Probe.prototype, 'write', Object.getOwnPropertyDescriptor(Probe.prototype, 'write')!);
        Reflect.defineMetadata('__interceptors__', [tagged('own')], Probe.prototype.write);
        class ProbeModule {}
        Module({ controllers: [Probe] })(ProbeModule);
        expect(Reflect.getMetadata('method', Probe.prototype.read)).toBe(RequestMethod.GET);
        expect(Reflect.getMetadata('method', Probe.prototype.write)).toBe(RequestMethod.POST);
        expect(Reflect.getMetadata('path', Probe)).toBe('probe');
        expect(Reflect.getMetadata('path', Probe.prototype.write)).toBe('/');
        const app = await NestFactory.create(ProbeModule, { logger: false, abortOnError: false });
        try {
          expect(interceptWriteRoutes(app, tagged('skipped'), /^\/probe$/)).toBe(0);
          expect(interceptWriteRoutes(app, tagged('write routes'))).toBe(1);
          await app.listen(0, '127.0.0.1');
          const url = `http://127.0.0.1:${((app.getHttpServer() as HttpServer).address() as AddressInfo).port}/probe`;
          expect(await (await fetch(url)).json()).toEqual({ read: true });
          expect(seen).toEqual([]);
          expect(await (await fetch(url, { method: 'POST' })).json()).toEqual({ written: true });
          expect(seen).toEqual(['write routes', 'own']);
        } finally {
          await app.close();
        }
      },
    );
  });
});

describe('class-transformer metadata (src/common/validation/plain-copy.ts, class-transformer-storage.ts)', () => {
  const storage = classTransformerMetadata;

  test('cjs/storage is the storage its decorators write: types, transforms, exposed and excluded fields, and the class strategy', () => {
    contract(
      'class-transformer',
      'defaultMetadataStorage of cjs/storage answers findTypeMetadata, findTransformMetadatas, getExposedMetadatas, getExcludedMetadatas and getStrategy for decorated classes and their children',
      () => {
        class Child {
          @IsString() a!: string;
        }
        class Decorated {
          @Type(() => Child) child!: Child;
          @Transform(({ value }: { value: unknown }) => value) shaped!: string;
          @Expose({ name: 'alias' }) exposed!: string;
          @Exclude() hidden!: string;
          plain!: string;
        }
        class Inheriting extends Decorated {}
        @Exclude()
        class ExcludeAll {}
        for (const cls of [Decorated, Inheriting]) {
          expect(storage.findTypeMetadata(cls, 'child')).toBeDefined();
          expect(storage.findTypeMetadata(cls, 'plain')).toBeUndefined();
          expect(storage.findTransformMetadatas(cls, 'shaped', TransformationType.PLAIN_TO_CLASS)).toHaveLength(1);
          expect(storage.findTransformMetadatas(cls, 'plain', TransformationType.PLAIN_TO_CLASS)).toHaveLength(0);
          expect(storage.getExposedMetadatas(cls).map((m) => m.propertyName)).toEqual(['exposed']);
          expect(storage.getExcludedMetadatas(cls).map((m) => m.propertyName)).toEqual(['hidden']);
          expect(storage.getStrategy(cls)).toBe('none');
        }
        expect(storage.getStrategy(ExcludeAll)).toBe('excludeAll');
        expect(storage.getStrategy(Child)).toBe('none');
        expect(storage.getExposedMetadatas(Child)).toEqual([]);
      },
    );
  });

  test('plainToInstance of an undecorated class builds it with its constructor and copies scalar values over the defaults, in input order', () => {
    contract(
      'class-transformer',
      'plainToInstance(cls, plain, { exposeDefaultValues: true }) is new cls() with each scalar value of plain assigned, the rest left at their defaults',
      () => {
        class Flat {
          a = 'default';
          b?: string;
          c = 3;
        }
        const made = plainToInstance(Flat, { b: 'x', a: null, c: 0 }, { exposeDefaultValues: true });
        expect(made).toBeInstanceOf(Flat);
        expect(Object.keys(made)).toEqual(['a', 'b', 'c']);
        expect({ ...made }).toEqual({ a: null, b: 'x', c: 0 });
        expect({ ...plainToInstance(Flat, { b: 'y' }, { exposeDefaultValues: true }) }).toEqual({ a: 'default', b: 'y', c: 3 });
      },
    );
  });
});

describe('class-validator internals (src/common/validation/quick-check.ts)', () => {
  const storage = getMetadataStorage();

  test("a class's rules, inherited ones included, come from getTargetValidationMetadatas as metadata objects", () => {
    contract('class-validator', "getMetadataStorage().getTargetValidationMetadatas(cls, '', false, false, undefined) lists the class's rules and its parents'", () => {
      class Parent {
        @IsString()
        name?: string;
      }
      class Child extends Parent {
        @IsOptional()
        @IsIn(['a', 'b'])
        kind?: string;
      }
      const properties = storage.getTargetValidationMetadatas(Child, '', false, false, undefined).map((m) => m.propertyName);
      expect(new Set(properties)).toEqual(new Set(['name', 'kind']));
    });
  });

  test('a rule is metadata of type customValidation whose constraint instance validates, and IsOptional is a conditionalValidation', () => {
    contract(
      'class-validator',
      'ValidationMetadata {type, propertyName, constraints, constraintCls, each, validateIf, groups}; ValidationTypes names; getTargetValidatorConstraints(cls) -> [{instance.validate, async}]',
      () => {
        class Input {
          @IsOptional()
          @IsString({ each: true })
          names?: string[];
        }
        expect({ ...ValidationTypes }).toMatchObject({ CUSTOM_VALIDATION: 'customValidation', CONDITIONAL_VALIDATION: 'conditionalValidation', WHITELIST: 'whitelistValidation' });
        const metadatas = storage.getTargetValidationMetadatas(Input, '', false, false, undefined);
        const optional = metadatas.find((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION);
        const rule = metadatas.find((m) => m.type === ValidationTypes.CUSTOM_VALIDATION);
        expect(optional?.propertyName).toBe('names');
        const condition = optional?.constraints[0] as (object: object, value: unknown) => boolean;
        expect(typeof condition).toBe('function');
        expect(condition({}, undefined)).toBe(false);
        expect(condition({ names: ['x'] }, ['x'])).toBe(true);
        expect(rule).toMatchObject({ propertyName: 'names', each: true });
        expect(Array.isArray(rule?.constraints ?? [])).toBe(true);
        expect(rule?.groups ?? []).toEqual([]);
        expect(rule?.validateIf).toBeUndefined();
        const constraints = storage.getTargetValidatorConstraints(rule!.constraintCls);
        expect(constraints.length).toBeGreaterThan(0);
        const args = { targetName: 'Input', property: 'names', object: {}, value: 'x', constraints: rule!.constraints };
        expect(constraints[0].async).toBe(false);
        expect(constraints[0].instance.validate('x', args)).toBe(true);
        expect(constraints[0].instance.validate(5, args)).toBe(false);
      },
    );
  });
});

describe('class-validator internals (src/common/validation/numeric-text.ts, validate-input.ts)', () => {
  test('a built-in rule carries its name, a nested input is nestedValidation, and a full validation lists every failing rule by name with the value', async () => {
    await contractAsync(
      'class-validator',
      "ValidationMetadata.name ('isInt', 'isNumber'); ValidationTypes.NESTED_VALIDATION; ValidationError.constraints keyed by rule name, value when validationError.value is set",
      async () => {
        class Inner {
          @IsNumber()
          wait?: number;
        }
        class Outer {
          @Max(5)
          @IsInt()
          count?: number;

          @ValidateNested()
          @Type(() => Inner)
          inner?: Inner;
        }
        const metadatas = getMetadataStorage().getTargetValidationMetadatas(Outer, '', true, false, undefined);
        expect(metadatas.filter((m) => m.propertyName === 'count').map((m) => m.name)).toEqual(expect.arrayContaining(['isInt', 'max']));
        expect(metadatas.find((m) => m.propertyName === 'inner')?.type).toBe(ValidationTypes.NESTED_VALIDATION);
        expect(getMetadataStorage().getTargetValidationMetadatas(Inner, '', true, false, undefined)[0].name).toBe('isNumber');
        const outer = Object.assign(new Outer(), { count: 'x' });
        const [error] = await validate(outer, { stopAtFirstError: false, validationError: { target: false, value: true } });
        expect(error).toMatchObject({ property: 'count', value: 'x' });
        expect(Object.keys(error.constraints ?? {}).sort()).toEqual(['isInt', 'max']);
      },
    );
  });
});

describe("prom-client's own files (src/common/observability/metrics.ts)", () => {
  test('lib/registry, lib/counter, lib/gauge and lib/histogram are the very classes the entry point exports', () => {
    /* eslint-disable @typescript-eslint/no-require-imports -- the files metrics.ts loads, by the same paths */
    const entry = require('prom-client') as Record<string, unknown>;
    const own = {
      Registry: require('prom-client/lib/registry') as unknown,
      Counter: require('prom-client/lib/counter') as unknown,
      Gauge: require('prom-client/lib/gauge') as unknown,
      Histogram: require('prom-client/lib/histogram') as unknown,
    };
    /* eslint-enable @typescript-eslint/no-require-imports */
    for (const [name, cls] of Object.entries(own)) {
      contract('prom-client', `lib/${name.toLowerCase()} exports the class ${name} of the entry point`, () => {
        expect(typeof cls).toBe('function');
        expect(cls).toBe(entry[name]);
      });
    }
  });
});

describe('OpenTelemetry JSON serializer (libs/otel-export/otlp-sender.ts)', () => {
  test('JsonLogsSerializer writes an OTLP/HTTP JSON logs request from ReadableLogRecords', () => {
    contract(
      '@opentelemetry/otlp-transformer',
      'JsonLogsSerializer.serializeRequest(records) returns the UTF-8 JSON of an ExportLogsServiceRequest (marked experimental upstream)',
      () => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { JsonLogsSerializer } = require('@opentelemetry/otlp-transformer') as typeof import('@opentelemetry/otlp-transformer');
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
        const time: [number, number] = [1_700_000_000, 5_000_000];
        const bytes = JsonLogsSerializer.serializeRequest([
          {
            hrTime: time,
            hrTimeObserved: time,
            severityNumber: 9,
            severityText: 'INFO',
            eventName: 'baton.tool.call',
            body: 'hello',
            resource: resourceFromAttributes({ 'service.name': 'contract' }),
            instrumentationScope: { name: 'baton.ai-log', version: '1.0.0' },
            attributes: { 'baton.event.seq': 1, ok: true },
            droppedAttributesCount: 0,
          },
        ] as never);
        const request = JSON.parse(new TextDecoder().decode(bytes)) as {
          resourceLogs: { resource: { attributes: unknown[] }; scopeLogs: { scope: unknown; logRecords: Record<string, unknown>[] }[] }[];
        };
        const logs = request.resourceLogs[0];
        expect(logs.resource.attributes).toEqual([{ key: 'service.name', value: { stringValue: 'contract' } }]);
        expect(logs.scopeLogs[0].scope).toMatchObject({ name: 'baton.ai-log', version: '1.0.0' });
        expect(logs.scopeLogs[0].logRecords[0]).toMatchObject({
          timeUnixNano: '1700000000005000000',
          severityNumber: 9,
          severityText: 'INFO',
          eventName: 'baton.tool.call',
          body: { stringValue: 'hello' },
        });
      },
    );
  });
});

describe('MCP SDK experimental tasks (src/mcp/tasks/)', () => {
  const SDK = '@modelcontextprotocol/sdk';

  /** A server with `store` as its task store and a tasks/result of its own, and a client connected to it in memory. */
  async function connected(store: TaskStore) {
    const server = new Server(
      { name: 'contract', version: '1' },
      { capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }, taskStore: store },
    );
    server.setRequestHandler(GetTaskPayloadRequestSchema, (request) => ({ content: [{ type: 'text', text: `result of ${request.params.taskId}` }] }));
    const client = new McpClient({ name: 'contract', version: '1' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    return { client, server };
  }

  test('a server given a taskStore answers tasks/get, tasks/list and tasks/cancel from it, and its tasks/result can be replaced', async () => {
    await contractAsync(SDK, 'the Server option taskStore installs tasks/get, tasks/list, tasks/cancel over TaskStore; setRequestHandler replaces tasks/result', async () => {
      const task: Task = { taskId: 't1', status: 'working', ttl: 1000, createdAt: '2026-01-01T00:00:00.000Z', lastUpdatedAt: '2026-01-01T00:00:00.000Z', pollInterval: 1000 };
      const calls: string[] = [];
      const store: TaskStore = {
        createTask: () => Promise.reject(new Error('not used')),
        getTask: async (id) => (calls.push(`get ${id}`), id === 't1' ? { ...task } : null),
        storeTaskResult: () => Promise.resolve(),
        getTaskResult: () => Promise.reject(new Error('not used')),
        updateTaskStatus: async (id, status) => {
          calls.push(`update ${id} ${status}`);
          task.status = status;
        },
        listTasks: async (cursor) => (calls.push(`list ${cursor}`), { tasks: [{ ...task }] }),
      };
      const { client, server } = await connected(store);
      try {
        expect(await client.experimental.tasks.getTask('t1')).toMatchObject({ taskId: 't1', status: 'working' });
        expect((await client.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).toEqual(['t1']);
        expect(await client.experimental.tasks.cancelTask('t1')).toMatchObject({ taskId: 't1', status: 'cancelled' });
        const result = await client.experimental.tasks.getTaskResult('t1', CallToolResultSchema);
        expect(result.content).toEqual([{ type: 'text', text: 'result of t1' }]);
        await expect(client.experimental.tasks.getTask('t2')).rejects.toThrow(/not found/i);
        expect(calls).toEqual(expect.arrayContaining(['get t1', 'list undefined', 'update t1 cancelled', 'get t2']));
        expect(RELATED_TASK_META_KEY).toBe('io.modelcontextprotocol/related-task');
      } finally {
        await client.close();
        await server.close();
      }
    });
  });
});
