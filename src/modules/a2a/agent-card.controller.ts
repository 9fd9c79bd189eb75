import { Controller, Get, Header, HttpCode, Inject, Post } from '@nestjs/common';
import { Public } from '../../common/auth/public.decorator';
import { PublicUrl } from '../../common/public-url';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { buildAgentCard } from './agent-card.util';

/** The instance's agent card: public, like any discovery document, and the same for everyone (it names no project). */
@Controller()
@Public()
export class AgentCardController {
  constructor(
    private readonly url: PublicUrl,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(['.well-known/agent.json', '.well-known/agent-card.json'])
  @Header('Access-Control-Allow-Origin', '*')
  @Header('Cache-Control', 'public, max-age=300')
  card() {
    return buildAgentCard({ base: this.url.base, version: this.config.version, hosted: this.config.isHosted });
  }

  @Post('.well-known/agent.json')
  @HttpCode(200)
  @Header('Access-Control-Allow-Origin', '*')
  cardByPost() {
    return this.card();
  }
}
