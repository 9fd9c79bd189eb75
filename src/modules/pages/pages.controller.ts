import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Public } from '../../common/auth/public.decorator';
import { escapeHtml } from '../../common/http/html-page';
import { renderDemoBoard } from './demo-board';
import { DemoStore } from './demo-store.service';
import { renderHome } from './home.page';
import { renderOnboarding } from './onboarding.page';
import { PagesService } from './pages.service';
import { PublishedContent } from './published-content';
import { SLUG_PATTERN } from '../site/dto/slug.rules';
import { renderPricing } from './pricing.page';
import { renderSetup } from './setup.page';
import { publicPageHeaders, renderSitePage, SitePage } from './site-layout';
import { Answers, HTML_PAGE } from '../../common/http/answers.decorator';

/** Baton's public pages: plain HTML rendered on the server (no script but the onboarding check), one layout for all. */
@Controller()
@Public()
export class PagesController {
  constructor(
    private readonly pages: PagesService,
    private readonly published: PublishedContent,
    private readonly demoStore: DemoStore,
  ) {}

  @Get()
  @Answers(HTML_PAGE)
  home(@Res() res: Response): void {
    send(res, '/', { title: 'The live state of your projects, for AI assistants', body: renderHome() });
  }

  @Get('pricing')
  @Answers(HTML_PAGE)
  pricing(@Res() res: Response): void {
    send(res, '/pricing', { title: 'Pricing', body: renderPricing(this.pages.upgradeOffered) });
  }

  @Get('terms')
  @Answers(HTML_PAGE)
  terms(@Res() res: Response): void {
    this.content(res, 'terms');
  }

  @Get('privacy')
  @Answers(HTML_PAGE)
  privacy(@Res() res: Response): void {
    this.content(res, 'privacy');
  }

  @Get('changelog')
  @Answers(HTML_PAGE)
  async changelog(@Res() res: Response): Promise<void> {
    const page = await this.published.changelogHtml();
    send(res, '/changelog', { title: page.title, body: `<h1>${escapeHtml(page.title)}</h1>\n${page.html}` });
  }

  @Get('blog')
  @Answers(HTML_PAGE)
  async blog(@Res() res: Response): Promise<void> {
    const posts = (await this.published.blog()).map(
      (p) =>
        `<article class="card"><h2><a href="/blog/${p.slug}">${escapeHtml(p.title)}</a></h2><p class="muted"><time datetime="${escapeHtml(p.date)}">${escapeHtml(p.date)}</time></p><p>${escapeHtml(p.summary)}</p></article>`,
    );
    send(res, '/blog', { title: 'Blog', body: `<h1>Blog</h1>\n${posts.join('\n') || '<p>No posts yet.</p>'}` });
  }

  @Get('blog/:slug')
  @Answers(HTML_PAGE)
  async post(@Param('slug') slug: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const post = SLUG_PATTERN.test(slug) ? await this.published.post(slug) : undefined;
    if (!post) return notFound(req, res, `no blog post named ${slug}`);
    send(res, '/blog', {
      title: post.title,
      body: `<article><h1>${escapeHtml(post.title)}</h1><p class="muted"><time datetime="${escapeHtml(post.date)}">${escapeHtml(post.date)}</time></p>\n${post.html}</article>`,
    });
  }

  @Get('waitlist-pending')
  @Answers(HTML_PAGE)
  waitlistPending(@Res() res: Response): void {
    send(res, '/waitlist-pending', {
      title: 'You are on the waiting list',
      body: '<h1>You are on the waiting list</h1><p class="lede">Thank you. We open new workspaces a few at a time and will write to you as soon as yours is ready.</p><p>Meanwhile, look at the <a href="/demo">demo project</a> or run Baton on your own machine: <a href="/blog/self-hosting">how</a>.</p>',
    });
  }

  @Get('onboarding')
  @Answers(HTML_PAGE)
  onboarding(@Res() res: Response): void {
    send(res, '/onboarding', { title: 'Connect your assistant', body: renderOnboarding(this.pages.baseUrl, this.pages.hosted), script: '/static/onboarding.js' }, 'none');
  }

  @Get('setup')
  @Answers(HTML_PAGE)
  async setup(@Res() res: Response): Promise<void> {
    const [needed, health] = await Promise.all([this.pages.setup.needed(), this.pages.setup.report()]);
    send(res, '/setup', { title: 'Setup', body: renderSetup(needed, health) }, 'none');
  }

  @Get('demo')
  @Answers(HTML_PAGE)
  async demo(@Res() res: Response): Promise<void> {
    send(res, '/demo', { title: 'Demo project', body: renderDemoBoard(await this.demoStore.project()) });
  }

  @Get('static/:file')
  @Answers({ status: 200, contentType: 'application/octet-stream', description: 'A public asset of the pages (an image or a stylesheet), by file name.' })
  asset(@Param('file') file: string, @Req() req: Request, @Res() res: Response): void {
    const asset = this.pages.asset(file);
    if (!asset) return notFound(req, res, `no static file named ${file}`);
    res.set({ 'Content-Type': asset.type, 'Cache-Control': 'public, max-age=3600', 'X-Content-Type-Options': 'nosniff' }).send(asset.body);
  }

  private content(res: Response, name: 'terms' | 'privacy'): void {
    const page = this.pages.content.page(name);
    send(res, `/${name}`, { title: page.title, body: `<h1>${escapeHtml(page.title)}</h1>\n${page.html}` });
  }
}

function send(res: Response, path: string, page: SitePage, cache: 'short' | 'none' = 'short'): void {
  res.status(200).set(publicPageHeaders(cache)).send(renderSitePage(page, path));
}

/** A browser gets a page saying so; an API client the usual `{detail}`. */
function notFound(req: Request, res: Response, detail: string): void {
  res.status(404);
  if (!req.accepts(['json', 'html']) || req.accepts(['json', 'html']) === 'json') return void res.json({ detail });
  res
    .set(publicPageHeaders('none'))
    .send(renderSitePage({ title: 'Not found', body: `<h1>Not found</h1><p>${escapeHtml(detail)}.</p><p><a href="/">Baton's home page</a></p>` }, ''));
}
