import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { requestActorAccountId } from '../../../libs/tenancy';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { defaultHumanId } from '../sessions/human-id.util';
import { ProfileLayer } from './profile-layer.entity';
import { ProfileError } from './profile-layers.errors';

/** The scope id that names "the person asking" in user-layer routes and tools. */
export const USER_SELF = 'me';

/**
 * Whose `user` layer applies. Self-hosted, where no one has an account, a user layer is keyed on
 * the human id sessions carry. Hosted, once a credential names a person (a signed-in member, or
 * the member who made the API token), their layer is keyed on their account id, whatever human id
 * a session was registered with; a layer saved earlier under the person's e-mail address (the
 * human id people used before accounts) is carried over to the account the first time it is met.
 */
@Injectable()
export class UserLayerKeys {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
  ) {}

  /** The id a user scope's `me` stands for: the caller's account (hosted) or the default human id (self-hosted). */
  self(): string {
    if (!this.config.isHosted) return defaultHumanId(this.config.humanId);
    const account = requestActorAccountId();
    if (!account) throw ProfileError.invalidScope(`user/${USER_SELF} names the signed-in person or the member who made the API token; this credential names no one`);
    return account;
  }

  /**
   * The key of the user layer for a resolution about `humanId` (a session's, or a given user_id):
   * hosted with a known person, their account, or their e-mail-keyed layer until it is carried
   * over. Reads only, so it is safe in any transaction.
   */
  async keyFor(m: EntityManager, humanId: string | undefined): Promise<string | undefined> {
    if (humanId === undefined || !this.config.isHosted) return humanId;
    const account = requestActorAccountId();
    if (!account) return humanId;
    if (await m.existsBy(ProfileLayer, { scope_type: 'user', scope_id: account })) return account;
    return (await this.legacyOf(m, account))?.scope_id ?? account;
  }

  /** Hosted, moves the caller's layer kept under their e-mail address to their account id (in a writing transaction). */
  async carryOverCaller(m: EntityManager): Promise<void> {
    const account = this.config.isHosted ? requestActorAccountId() : undefined;
    if (account) await this.carryOver(m, account);
  }

  /** Moves the layer keyed on the account's e-mail address to the account id, unless the account has one already. */
  async carryOver(m: EntityManager, account: string): Promise<void> {
    if (await m.existsBy(ProfileLayer, { scope_type: 'user', scope_id: account })) return;
    const legacy = await this.legacyOf(m, account);
    if (legacy) await m.update(ProfileLayer, { id: legacy.id }, { scope_id: account });
  }

  /** The newest user layer keyed on the account's e-mail address (any case), if any. */
  private async legacyOf(m: EntityManager, account: string): Promise<ProfileLayer | null> {
    const rows: { email: string | null }[] = await this.source.query('SELECT email FROM control.accounts WHERE id = $1', [account]);
    const email = rows[0]?.email?.toLowerCase();
    if (!email) return null;
    return m.createQueryBuilder(ProfileLayer, 'l').where("l.scope_type = 'user' AND lower(l.scope_id) = :email", { email }).orderBy('l.updated_at', 'DESC').getOne();
  }
}
