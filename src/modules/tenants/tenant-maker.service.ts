import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createTenantSchema, dropTenantSchema, latestMigrationName, roleNameFor, runMigrations, schemaNameFor, TenantServer, TenantServers } from '../../../libs/tenancy';
import { TENANT_MIGRATIONS } from '../../../migrations/tenant';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { TenantRecord } from './tenant.entity';

/** `active`: a workspace; `spare`: made in advance, handed out as a workspace later (TenantSpares). */
export type MadeStatus = 'active' | 'spare';

/** Makes hosted tenants (schema, role, control-plane row, every tenant migration) and decides where a new one goes. */
@Injectable()
export class TenantMaker {
  /** Tenants this instance is making, by id, with their placement. */
  private readonly placing = new Map<string, string | null>();
  /** The placement decision running now, which the next one waits for. */
  private placements: Promise<unknown> = Promise.resolve();

  constructor(
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    private readonly servers: TenantServers,
  ) {}

  /**
   * Makes tenant `id` on `placement` with its own schema and role, migrated. Its control-plane row
   * is written once the schema exists, so a failure leaves neither behind.
   */
  async make(id: string, name: string, status: MadeStatus, placement: string | null): Promise<void> {
    const schema = schemaNameFor(id);
    const role = roleNameFor(id);
    const now = new Date();
    this.placing.set(id, placement);
    const source = await this.servers.source(placement).catch((error: unknown) => {
      this.placing.delete(id);
      throw error;
    });
    const runner = source.createQueryRunner();
    let created = false;
    try {
      await runner.connect();
      await runner.query('BEGIN');
      try {
        await createTenantSchema(runner, schema, role);
        await runner.query('COMMIT');
      } catch (error) {
        await runner.query('ROLLBACK');
        throw error;
      }
      created = true;
      await this.source.getRepository(TenantRecord).insert({
        id,
        name,
        schema_name: schema,
        role_name: role,
        db_url_sealed: null,
        db_server: placement,
        migrated_to: null,
        status,
        created_at: now,
        updated_at: now,
      });
      await runMigrations(runner, TENANT_MIGRATIONS, { dialect: 'postgres', schema, role });
      await this.source.getRepository(TenantRecord).update({ id }, { migrated_to: latestMigrationName(TENANT_MIGRATIONS) });
    } catch (error) {
      if (created) await dropTenantSchema(runner, schema, role).catch(() => undefined);
      await this.source
        .getRepository(TenantRecord)
        .delete({ id })
        .catch(() => undefined);
      throw error;
    } finally {
      this.placing.delete(id);
      await runner.release();
    }
  }

  /**
   * Where tenant `id` goes: of the servers new tenants may be placed on, the one holding the
   * fewest tenants now, spares among them (the first listed on a tie). Null is the control plane's
   * database. A tenant has no row until its schema exists, so the tenants this instance is still
   * making count where they were placed (their rows, once written, are left out of the count): a
   * burst of sign-ups spreads instead of all landing on the server that was emptiest when it began.
   * The id stays counted until `make` ends, or `forget`.
   */
  async placeNext(id: string): Promise<string | null> {
    const candidates = this.servers.placeable();
    if (candidates.length <= 1) return this.servers.placementOf(candidates[0]?.key ?? '');
    // One placement at a time in this instance: one placed while another's count is read would be
    // counted twice (its row and its entry here) or not at all.
    const turn = this.placements.then(() => this.placeAmong(id, candidates));
    this.placements = turn.catch(() => undefined);
    return turn;
  }

  /** Drops a placement `placeNext` made for a tenant that will not be made (a spare was handed out instead). */
  forget(id: string): void {
    this.placing.delete(id);
  }

  private async placeAmong(id: string, candidates: TenantServer[]): Promise<string | null> {
    const making = [...this.placing];
    const rows: { db_server: string | null; tenants: string }[] = await this.source.query(
      'SELECT db_server, count(*) AS tenants FROM control.tenants WHERE id <> ALL($1) GROUP BY db_server',
      [making.map(([made]) => made)],
    );
    const held = new Map(rows.map((r) => [r.db_server, Number(r.tenants)]));
    for (const [, placement] of making) held.set(placement, (held.get(placement) ?? 0) + 1);
    const count = (server: TenantServer) => held.get(this.servers.placementOf(server.key)) ?? 0;
    const best = candidates.reduce((fewest, server) => (count(server) < count(fewest) ? server : fewest));
    const placement = this.servers.placementOf(best.key);
    this.placing.set(id, placement);
    return placement;
  }
}
