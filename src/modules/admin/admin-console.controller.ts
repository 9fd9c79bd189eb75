import { Body, Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AdminOnly } from '../../common/auth/admin-only.decorator';
import { RequestError } from '../../common/errors/request-error';
import { HTML_PAGE_HEADERS } from '../../common/http/html-page';
import { AdminAudit } from '../site/admin-audit.service';
import { EntryIdParamsDto } from '../site/dto/entry-id-params.dto';
import { CreateBlogPostDto } from '../site/dto/create-blog-post.dto';
import { CreateChangelogEntryDto } from '../site/dto/create-changelog-entry.dto';
import { Feedback } from '../site/feedback.service';
import { Publications } from '../site/publications.service';
import { Waitlist } from '../site/waitlist.service';
import { consolePage } from './admin-console.page';
import { AdminHealthService } from './admin-health.service';
import { AdminOps } from './admin-ops.service';
import { AdminStatsService } from './admin-stats.service';
import { Answers, HTML_PAGE, SEE_OTHER } from '../../common/http/answers.decorator';

/**
 * GET /admin, the console, and the form posts of its buttons (/admin/console/...):
 * each does what its JSON route does, records it, and sends the browser back
 * to the console (303). The guard refuses a post from another Origin.
 */
@Controller('admin')
@AdminOnly()
export class AdminConsoleController {
  constructor(
    private readonly health: AdminHealthService,
    private readonly stats: AdminStatsService,
    private readonly ops: AdminOps,
    private readonly waitlist: Waitlist,
    private readonly feedback: Feedback,
    private readonly publications: Publications,
    private readonly audit: AdminAudit,
  ) {}

  @Get()
  @Answers(HTML_PAGE)
  async page(@Res() res: Response): Promise<void> {
    const [health, stats, git, waitlist, posts, changelog, feedback, audit] = await Promise.all([
      this.health.report(),
      this.stats.report(),
      this.ops.gitStatus(),
      this.waitlist.list(),
      this.publications.allPosts(),
      this.publications.allChangelog(),
      this.feedback.recent(),
      this.audit.recent(),
    ]);
    res.status(200).set(CONSOLE_HEADERS).send(consolePage({ health, stats, git, waitlist, posts, changelog, feedback, audit }));
  }

  @Post('console/waitlist/:entry_id/delete')
  @Answers(SEE_OTHER)
  async deleteEntry(@Param() params: EntryIdParamsDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.audit.recordFor(req, 'waitlist.delete', await this.waitlist.remove(params.entry_id));
    res.redirect(303, '/admin#waitlist');
  }

  @Post('console/blog')
  @Answers(SEE_OTHER)
  async createPost(@Body() body: CreateBlogPostDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.audit.recordFor(req, 'blog.create', (await this.publications.createPost(body)).slug);
    res.redirect(303, '/admin#blog');
  }

  @Post('console/blog/:entry_id/:action')
  @Answers(SEE_OTHER)
  async changePost(@Param() params: EntryIdParamsDto, @Param('action') action: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const post =
      action === 'delete' ? await this.publications.deletePost(params.entry_id) : await this.publications.updatePost(params.entry_id, { published: publishFlag(action) });
    await this.audit.recordFor(req, `blog.${action}`, post.slug);
    res.redirect(303, '/admin#blog');
  }

  @Post('console/changelog')
  @Answers(SEE_OTHER)
  async createEntry(@Body() body: CreateChangelogEntryDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.audit.recordFor(req, 'changelog.create', (await this.publications.createChangelog(body)).title);
    res.redirect(303, '/admin#changelog');
  }

  @Post('console/changelog/:entry_id/:action')
  @Answers(SEE_OTHER)
  async changeEntry(@Param() params: EntryIdParamsDto, @Param('action') action: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const entry =
      action === 'delete' ? await this.publications.deleteChangelog(params.entry_id) : await this.publications.updateChangelog(params.entry_id, { published: publishFlag(action) });
    await this.audit.recordFor(req, `changelog.${action}`, entry.title);
    res.redirect(303, '/admin#changelog');
  }
}

/**
 * The console's forms post back to Baton, whose admin guard wants Baton's Origin: under the
 * pages' usual `no-referrer` a browser sends `Origin: null` with a form, so the console keeps `same-origin`.
 */
const CONSOLE_HEADERS = { ...HTML_PAGE_HEADERS, 'Referrer-Policy': 'same-origin' };

function publishFlag(action: string): boolean {
  if (action === 'publish') return true;
  if (action === 'unpublish') return false;
  throw RequestError.notFound(`no console action ${action}`);
}
