import { Inject, Injectable } from '@nestjs/common';
import { runWithTenant, TenantDb } from '../../../libs/tenancy';
import { PublicUrl } from '../../common/public-url';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { DeepHealth, HealthService } from '../health/health.service';
import { Project } from '../projects/project.entity';
import { localTenant } from '../tenants/local-tenant';

export interface SetupNeeded {
  /** Whether this instance still needs setting up before people use it. */
  needed: boolean;
  /** What is missing, one line each; empty when nothing is. */
  missing: string[];
}

export interface SetupHealth extends DeepHealth {
  mode: AppConfig['mode'];
  database: AppConfig['databaseType'];
  /** The address assistants connect to (APP_URL, else where this process listens). */
  base_url: string;
}

/**
 * What GET /setup/needed and /setup report. Self-hosted, setting up means having a first project
 * (the onboarding creates one through an assistant). Hosted, it means the configuration a
 * production instance needs: its own address, its own session secret and a way to sign in.
 */
@Injectable()
export class SetupService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly health: HealthService,
    private readonly db: TenantDb,
    private readonly publicUrl: PublicUrl,
  ) {}

  async needed(): Promise<SetupNeeded> {
    const missing = this.config.isHosted ? this.hostedMissing() : await this.selfHostedMissing();
    return { needed: missing.length > 0, missing };
  }

  async report(): Promise<SetupHealth> {
    const deep = await this.health.deep();
    return { ...deep, mode: this.config.mode, database: this.config.databaseType, base_url: this.publicUrl.base };
  }

  private async selfHostedMissing(): Promise<string[]> {
    const projects = await runWithTenant(localTenant(this.config), () => this.db.read((m) => m.getRepository(Project).count()));
    return projects === 0 ? ['a first project: connect an assistant (see /onboarding) and ask it to create one, or POST /projects'] : [];
  }

  private hostedMissing(): string[] {
    const c = this.config;
    const missing: string[] = [];
    if (!c.explicitlySet.has('APP_URL')) missing.push('APP_URL: the public https address of this instance');
    if (!c.explicitlySet.has('SESSION_SECRET')) missing.push('SESSION_SECRET: a long random secret signing session cookies');
    if (!c.idpaClientId && !c.idpcClientId && !c.codehostClientId && !c.emailApiKey) {
      missing.push('a way to sign in: a provider (IDPA_CLIENT_ID, IDPC_CLIENT_ID or CODEHOST_CLIENT_ID with its secret) or EMAIL_API_KEY for e-mailed links');
    }
    return missing;
  }
}
