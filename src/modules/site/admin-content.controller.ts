import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { AdminOnly } from '../../common/auth/admin-only.decorator';
import { AdminAudit, AuditEntry } from './admin-audit.service';
import { EntryIdParamsDto } from './dto/entry-id-params.dto';
import { CreateBlogPostDto } from './dto/create-blog-post.dto';
import { CreateChangelogEntryDto } from './dto/create-changelog-entry.dto';
import { UpdateBlogPostDto } from './dto/update-blog-post.dto';
import { UpdateChangelogEntryDto } from './dto/update-changelog-entry.dto';
import { Feedback, FeedbackEntry } from './feedback.service';
import { Publication, Publications } from './publications.service';
import { Waitlist, WaitlistEntry } from './waitlist.service';

/** The admin side of the instance's content; every change is written to the audit trail. */
@Controller()
@AdminOnly()
export class AdminContentController {
  constructor(
    private readonly waitlist: Waitlist,
    private readonly feedback: Feedback,
    private readonly publications: Publications,
    private readonly audit: AdminAudit,
  ) {}

  @Get('admin/waitlist')
  async waitlistEntries(): Promise<{ entries: WaitlistEntry[] }> {
    return { entries: await this.waitlist.list() };
  }

  @Delete('admin/waitlist/:entry_id')
  @HttpCode(204)
  async removeFromWaitlist(@Param() params: EntryIdParamsDto, @Req() req: Request): Promise<void> {
    const email = await this.waitlist.remove(params.entry_id);
    await this.audit.recordFor(req, 'waitlist.delete', email);
  }

  @Get('admin/feedback')
  async feedbackEntries(): Promise<{ entries: FeedbackEntry[] }> {
    return { entries: await this.feedback.recent() };
  }

  @Get('admin/audit')
  async auditEntries(): Promise<{ entries: AuditEntry[] }> {
    return { entries: await this.audit.recent() };
  }

  @Get('admin/blog')
  async posts(): Promise<{ posts: Publication[] }> {
    return { posts: await this.publications.allPosts() };
  }

  @Get('admin/blog/:entry_id')
  post(@Param() params: EntryIdParamsDto): Promise<Publication> {
    return this.publications.post(params.entry_id);
  }

  @Post('admin/blog')
  async createPost(@Body() body: CreateBlogPostDto, @Req() req: Request): Promise<Publication> {
    const post = await this.publications.createPost(body);
    await this.audit.recordFor(req, 'blog.create', post.slug);
    return post;
  }

  /** Edits, publishes (`published: true`) or unpublishes a post. */
  @Patch('admin/blog/:entry_id')
  async updatePost(@Param() params: EntryIdParamsDto, @Body() body: UpdateBlogPostDto, @Req() req: Request): Promise<Publication> {
    const post = await this.publications.updatePost(params.entry_id, body);
    await this.audit.recordFor(req, 'blog.update', post.slug);
    return post;
  }

  @Delete('admin/blog/:entry_id')
  @HttpCode(204)
  async deletePost(@Param() params: EntryIdParamsDto, @Req() req: Request): Promise<void> {
    const post = await this.publications.deletePost(params.entry_id);
    await this.audit.recordFor(req, 'blog.delete', post.slug);
  }

  @Get('api/admin/changelog-entries')
  async changelog(): Promise<{ entries: Publication[] }> {
    return { entries: await this.publications.allChangelog() };
  }

  @Get('api/admin/changelog-entries/:entry_id')
  changelogEntry(@Param() params: EntryIdParamsDto): Promise<Publication> {
    return this.publications.changelogEntry(params.entry_id);
  }

  @Post('api/admin/changelog-entries')
  async createChangelog(@Body() body: CreateChangelogEntryDto, @Req() req: Request): Promise<Publication> {
    const entry = await this.publications.createChangelog(body);
    await this.audit.recordFor(req, 'changelog.create', entry.title);
    return entry;
  }

  @Patch('api/admin/changelog-entries/:entry_id')
  async updateChangelog(@Param() params: EntryIdParamsDto, @Body() body: UpdateChangelogEntryDto, @Req() req: Request): Promise<Publication> {
    const entry = await this.publications.updateChangelog(params.entry_id, body);
    await this.audit.recordFor(req, 'changelog.update', entry.title);
    return entry;
  }

  @Delete('api/admin/changelog-entries/:entry_id')
  @HttpCode(204)
  async deleteChangelog(@Param() params: EntryIdParamsDto, @Req() req: Request): Promise<void> {
    const entry = await this.publications.deleteChangelog(params.entry_id);
    await this.audit.recordFor(req, 'changelog.delete', entry.title);
  }
}
