import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { RequestError } from '../../common/errors/request-error';
import { PublicUrl } from '../../common/public-url';
import { RewindTokenDto } from './dto/rewind-token.dto';
import { IssuedRewindToken, ProjectTokensService } from './project-tokens.service';
import { RewindService } from './rewind.service';
import { REWIND_TOKEN_TTL_DEFAULT_S } from './time.constants';

/**
 * Shared rewind links: POST .../rewind-token mints a read-only token pinned to one moment of
 * the project, and GET .../rewind opened with it shows that moment and no other.
 */
@Injectable()
export class RewindLinksService {
  constructor(
    private readonly tokens: ProjectTokensService,
    private readonly rewind: RewindService,
    private readonly clock: Clock,
    private readonly publicUrl: PublicUrl,
  ) {}

  async mint(projectId: string, input: RewindTokenDto): Promise<IssuedRewindToken> {
    const now = this.clock.now();
    const at = input.at === undefined ? now : new Date(input.at);
    if (at.getTime() > now.getTime()) throw RequestError.invalidInput('at must not be in the future: a rewind link shows the project as it was');
    const issued = await this.tokens.issue(projectId, 'rewind', input.ttl_seconds ?? REWIND_TOKEN_TTL_DEFAULT_S, at);
    const query = new URLSearchParams({ at: at.toISOString(), token: issued.token });
    return { ...issued, at: at.toISOString(), url: this.publicUrl.to(`/projects/${projectId}/rewind?${query.toString()}`) };
  }

  /**
   * GET .../rewind: the moment asked for. A pinned link shows its own moment: asking it for
   * another is refused (403) rather than quietly answered with a moment nobody asked for.
   */
  view(projectId: string, at: string | undefined, pinnedAt: Date | null | undefined) {
    if (pinnedAt) {
      if (at !== undefined && new Date(at).getTime() !== pinnedAt.getTime()) {
        throw RequestError.forbidden(`this rewind link shows the project at ${pinnedAt.toISOString()} only`);
      }
      return this.rewind.at(projectId, pinnedAt.toISOString());
    }
    if (at === undefined) throw RequestError.invalidInput('at is required: the moment to show, as an ISO 8601 time, e.g. 2026-01-31T12:00:00Z');
    return this.rewind.at(projectId, at);
  }
}
