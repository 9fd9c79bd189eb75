import { Body, Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Public } from '../../common/auth/public.decorator';
import { JoinWaitlistDto } from './dto/join-waitlist.dto';
import { SendFeedbackDto } from './dto/send-feedback.dto';
import { SlugParamsDto } from './dto/slug-params.dto';
import { Feedback } from './feedback.service';
import { Publication, Publications } from './publications.service';
import { Waitlist } from './waitlist.service';

/** The instance's public content: the waitlist, the feedback box, the blog and the changelog. No credentials. */
@Controller()
@Public()
export class SiteController {
  constructor(
    private readonly waitlist: Waitlist,
    private readonly feedback: Feedback,
    private readonly publications: Publications,
  ) {}

  @Get('waitlist')
  async waitlistState(): Promise<{ open: true; size: number }> {
    return { open: true, size: await this.waitlist.size() };
  }

  /** 201 for a new address, 200 for one already on the list (which keeps its first note). */
  @Post('waitlist')
  async join(@Body() body: JoinWaitlistDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<{ detail: string; email: string }> {
    const { created, email } = await this.waitlist.join(body, req.ip);
    res.status(created ? 201 : 200);
    return { detail: created ? 'added to the waitlist' : 'already on the waitlist', email };
  }

  @Post('feedback')
  async send(@Body() body: SendFeedbackDto, @Req() req: Request): Promise<{ id: string; detail: string }> {
    return { ...(await this.feedback.send(body, req.ip)), detail: 'thank you: your feedback was received' };
  }

  @Get('api/changelog-entries')
  async changelog(): Promise<{ entries: Publication[] }> {
    return { entries: await this.publications.publishedChangelog() };
  }

  @Get('api/blog-posts')
  async posts(): Promise<{ posts: Publication[] }> {
    return { posts: await this.publications.publishedPosts() };
  }

  @Get('api/blog-posts/:slug')
  post(@Param() params: SlugParamsDto): Promise<Publication> {
    return this.publications.publishedPost(params.slug);
  }
}
