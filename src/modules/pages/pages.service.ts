import { Inject, Injectable } from '@nestjs/common';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PublicUrl } from '../../common/public-url';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SetupService } from './setup.service';
import { checkoutFolder, SiteContent } from './site-content';

/** The files under public/ the pages use, by name, with their media type; nothing else is served from there. */
const ASSETS: Record<string, string> = { 'board.png': 'image/png', 'onboarding.js': 'text/javascript; charset=utf-8' };

export interface StaticAsset {
  type: string;
  body: Buffer;
}

/** What the public pages read: their text, the setup state, this instance's address and the few static files. */
@Injectable()
export class PagesService {
  private readonly assets = new Map<string, StaticAsset>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly publicUrl: PublicUrl,
    readonly content: SiteContent,
    readonly setup: SetupService,
  ) {
    const folder = checkoutFolder('public');
    for (const [name, type] of Object.entries(ASSETS)) {
      const path = join(folder, name);
      if (existsSync(path)) this.assets.set(name, { type, body: readFileSync(path) });
    }
  }

  get hosted(): boolean {
    return this.config.isHosted;
  }

  /** Whether the paid plan can be bought here (hosted, with a payment link or a checkout price). */
  get upgradeOffered(): boolean {
    return this.config.isHosted && Boolean(this.config.billingPaymentLink || (this.config.billingSecretKey && this.config.billingPriceId));
  }

  get baseUrl(): string {
    return this.publicUrl.base;
  }

  asset(name: string): StaticAsset | undefined {
    return this.assets.get(name);
  }
}
