import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SecretBox } from '../../../libs/tenancy';
import { RequestError } from '../../common/errors/request-error';
import { isSafeMethod, isSameOrigin } from '../../common/http/same-origin';
import { sealerFor } from '../../common/sealer';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { AccountRequests } from '../accounts/account-requests.service';
import { AuthProviderError } from './auth-providers.errors';
import { CodehostConnection } from './codehost-connection.entity';
import { CodehostConnectionView, connectionView } from './codehost-connection.view';

/**
 * A signed-in person's code-host connections (spec §5 flow 2). The token is sealed before it is
 * stored and nothing here returns it; a connection is the account's, whatever workspace is current.
 */
@Injectable()
export class CodehostConnections {
  private readonly box: SecretBox;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    private readonly requests: AccountRequests,
  ) {
    this.box = sealerFor(config, 'codehost-token');
  }

  async list(req: Request): Promise<CodehostConnectionView[]> {
    const accountId = await this.personOf(req);
    const rows = await this.source.getRepository(CodehostConnection).find({ where: { account_id: accountId }, order: { created_at: 'ASC' } });
    return rows.map(connectionView);
  }

  async remove(req: Request, login: string): Promise<void> {
    const accountId = await this.personOf(req);
    const { affected } = await this.source
      .getRepository(CodehostConnection)
      .createQueryBuilder()
      .delete()
      .where('account_id = :accountId AND lower(account_login) = lower(:login)', { accountId, login })
      .execute();
    if (!affected) throw AuthProviderError.connectionNotFound(login);
  }

  /** Stores (or replaces) the account's connection to a code-host login. */
  async save(accountId: string, login: string, scopes: string[], token: string): Promise<void> {
    const now = new Date();
    await this.source.query(
      `INSERT INTO control.codehost_connections (id, account_id, account_login, scopes, token_sealed, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6)
       ON CONFLICT (account_id, lower(account_login))
       DO UPDATE SET account_login = EXCLUDED.account_login, scopes = EXCLUDED.scopes, token_sealed = EXCLUDED.token_sealed, updated_at = EXCLUDED.updated_at`,
      [randomUUID(), accountId, login, scopes.join(' '), this.box.seal(token), now],
    );
  }

  /**
   * The login (as the code host spells it) and the opened token of an account's connection, or null
   * when it has none for that login: for the code-host calls of a project linked to it, opened only
   * when a call needs it and never kept.
   */
  async tokenOf(accountId: string, login: string): Promise<{ login: string; token: string } | null> {
    const row = await this.source
      .getRepository(CodehostConnection)
      .createQueryBuilder('c')
      .where('c.account_id = :accountId AND lower(c.account_login) = lower(:login)', { accountId, login })
      .getOne();
    return row ? { login: row.account_login, token: this.box.open(row.token_sealed) } : null;
  }

  /**
   * The account of the browser session (an API token is a workspace's, not a person's): 401
   * without one; a change must come from Baton's own pages.
   */
  private async personOf(req: Request): Promise<string> {
    const person = await this.requests.person(req);
    if (!isSafeMethod(req.method) && !isSameOrigin(req, this.config.baseUrl)) {
      throw RequestError.forbidden("a change made with the sign-in cookie must come from Baton's own pages (the request's Origin is another site, or missing)");
    }
    return person.accountId;
  }
}
