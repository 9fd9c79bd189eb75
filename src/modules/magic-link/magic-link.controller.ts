import { Body, Controller, Get, HttpCode, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Public } from '../../common/auth/public.decorator';
import { HTML_PAGE_HEADERS } from '../../common/http/html-page';
import { RequestMagicLinkDto } from './dto/request-magic-link.dto';
import { VerifyMagicLinkQueryDto } from './dto/verify-magic-link-query.dto';
import { MagicLinkPageFilter, wantsPage } from './magic-link-page.filter';
import { checkInboxPage } from './magic-link.pages';
import { MAGIC_LINK_TTL_MS } from './magic-link.constants';
import { MAGIC_LINK_ACCEPTED, MagicLinks } from './magic-links.service';
import { Answers, REDIRECT } from '../../common/http/answers.decorator';

/** Sign-in by e-mail link (spec §5, flow 3). Browsers get pages, API clients JSON. */
@Controller('auth/magic')
@Public()
@UseFilters(MagicLinkPageFilter)
export class MagicLinkController {
  constructor(private readonly links: MagicLinks) {}

  /** 202 whether or not the address is known; the sign-in page's form gets a "check your inbox" page. */
  @Post()
  @HttpCode(202)
  async request(@Body() body: RequestMagicLinkDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<typeof MAGIC_LINK_ACCEPTED | string> {
    await this.links.request(body, req.ip);
    if (!wantsPage(req)) return MAGIC_LINK_ACCEPTED;
    res.set(HTML_PAGE_HEADERS);
    return checkInboxPage(MAGIC_LINK_TTL_MS / 60_000);
  }

  /** Consumes the link and signs in (a session cookie and a redirect), or a page saying why not. */
  @Get('verify')
  @Answers(REDIRECT, { status: 400, contentType: 'text/html', description: 'A page saying the link is used, expired or unknown.' })
  verify(@Query() query: VerifyMagicLinkQueryDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.links.verify(query.token, req, res);
  }
}
