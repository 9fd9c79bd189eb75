import { Inject, Injectable } from '@nestjs/common';
import { OutboundGuard, OutboundRefusedError } from '../../../libs/outbound-guard';
import { findSecret } from '../../../libs/secrets';
import { SecretBox, TenantDb } from '../../../libs/tenancy';
import { RequestError } from '../../common/errors/request-error';
import { BYODB_GUARD, HTTP_OUTBOUND_GUARD } from '../../common/outbound/outbound-guards';
import { sealerFor } from '../../common/sealer';
import { byodbHost } from '../../database/data-source-options';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SaveConnectionDto } from './dto/save-connection.dto';
import { WorkspaceConnection } from './workspace-connection.entity';

/** What a URL that is itself a secret shows after its origin. */
const SEALED_PATH = '[sealed]';

export interface ConnectionView {
  name: string;
  kind: string;
  url: string | null;
  /** Whether a secret is stored; the secret itself is never answered. */
  has_secret: boolean;
  created_at: string;
  updated_at: string;
}

/**
 * The workspace's named outbound connections (a database, an OTLP endpoint, a notification
 * target, a code host): saved (created or replaced) by name, removed by name. Each target passes
 * the outbound guard before it is stored (hosted: no internal address); credentials are sealed
 * and never answered, a database URL's password included.
 */
@Injectable()
export class WorkspaceConnections {
  private readonly box: SecretBox;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly db: TenantDb,
    @Inject(BYODB_GUARD) private readonly databaseGuard: OutboundGuard,
    @Inject(HTTP_OUTBOUND_GUARD) private readonly httpGuard: OutboundGuard,
  ) {
    this.box = sealerFor(config, 'workspace-connection');
  }

  async list(): Promise<ConnectionView[]> {
    return (await this.db.read((m) => m.find(WorkspaceConnection, { order: { name: 'ASC' } }))).map(view);
  }

  /** Creates or replaces `name`; `created` says which. A replacement without a secret keeps none. */
  async save(input: SaveConnectionDto): Promise<{ created: boolean; connection: ConnectionView }> {
    const target = await this.target(input);
    return this.db.transaction(async (m) => {
      const current = await m.findOneBy(WorkspaceConnection, { name: input.name });
      const now = new Date();
      const row: WorkspaceConnection = {
        name: input.name,
        kind: input.kind,
        url: target.url,
        secret_sealed: target.secret ? this.box.seal(target.secret) : null,
        created_at: current?.created_at ?? now,
        updated_at: now,
      };
      await m.upsert(WorkspaceConnection, row, ['name']);
      return { created: !current, connection: view(row) };
    });
  }

  /** The URL to store and show (no credentials in it) and the secret to seal, once the guard let the target through. */
  private async target(input: SaveConnectionDto): Promise<{ url: string; secret: string | undefined }> {
    let url: URL;
    try {
      url = new URL(input.url);
    } catch {
      throw RequestError.invalidInput(`url must be a URL (${input.kind === 'database' ? 'postgres://...' : 'https://...'})`);
    }
    if (input.kind === 'database') {
      if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw RequestError.invalidInput('url must be a postgres:// URL for a database connection');
      let host: string;
      try {
        host = byodbHost(input.url);
      } catch (error) {
        throw RequestError.invalidInput(`url: ${(error as Error).message}`);
      }
      const password = url.password ? decodeURIComponent(url.password) : undefined;
      if (password !== undefined && input.secret !== undefined) throw RequestError.invalidInput('secret: the url already holds a password; give it in one place');
      await this.guarded(this.databaseGuard, () => this.databaseGuard.check(host));
      url.password = '';
      return { url: url.toString(), secret: password ?? input.secret };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw RequestError.invalidInput(`url must be an http(s) URL for ${input.kind === 'otlp' ? 'an' : 'a'} ${input.kind} connection`);
    if (url.username || url.password) throw RequestError.invalidInput('url must not hold credentials: give them as secret, which is sealed');
    await this.guarded(this.httpGuard, () => this.httpGuard.checkUrl(url));
    // Some targets are secrets themselves (a chat webhook URL, a token in the query string): such a
    // URL is sealed whole and shown only as its origin, since the URL is shown again.
    const secretKind = findSecret(url.toString());
    if (!secretKind) return { url: url.toString(), secret: input.secret };
    if (input.secret !== undefined) throw RequestError.invalidInput(`secret: the url is itself a secret (${secretKind}) and is sealed; give no other secret`);
    return { url: `${url.origin}/${SEALED_PATH}`, secret: url.toString() };
  }

  /** Hosted, the guard's refusal as bad input naming the url; self-hosted the operator chooses freely (loopback is the usual case). */
  private async guarded(guard: OutboundGuard, check: () => Promise<unknown>): Promise<void> {
    if (!guard.enforcing) return;
    try {
      await check();
    } catch (error) {
      if (error instanceof OutboundRefusedError) throw RequestError.invalidInput(`url is refused: ${error.reason}`);
      throw error;
    }
  }

  async remove(name: string): Promise<void> {
    const { affected } = await this.db.transaction((m) => m.delete(WorkspaceConnection, { name }));
    if (!affected) throw RequestError.notFound(`connection not found: ${name}`);
  }
}

function view(row: WorkspaceConnection): ConnectionView {
  return {
    name: row.name,
    kind: row.kind,
    url: row.url,
    has_secret: row.secret_sealed !== null,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
