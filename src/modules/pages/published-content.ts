import { Injectable } from '@nestjs/common';
import { escapeHtml } from '../../common/http/html-page';
import { SiteError } from '../site/site.errors';
import { Publication, Publications } from '../site/publications.service';
import { renderMarkdown } from './markdown.util';
import { BlogPost, SiteContent } from './site-content';

/**
 * What the public pages show: the posts and changelog that ship as files under content/, and
 * those an admin wrote and published in the console (a stored post takes the place of a file
 * post with the same slug). Stored text goes through the same renderer, which escapes everything.
 */
@Injectable()
export class PublishedContent {
  constructor(
    private readonly files: SiteContent,
    private readonly publications: Publications,
  ) {}

  /** Newest first. */
  async blog(): Promise<BlogPost[]> {
    const stored = (await this.publications.publishedPosts()).map(toPost);
    const slugs = new Set(stored.map((p) => p.slug));
    return [...stored, ...this.files.blog().filter((p) => !slugs.has(p.slug))].sort((a, b) => b.date.localeCompare(a.date));
  }

  async post(slug: string): Promise<BlogPost | undefined> {
    try {
      return toPost(await this.publications.publishedPost(slug));
    } catch (error) {
      if (error instanceof SiteError) return this.files.post(slug);
      throw error;
    }
  }

  /** The changelog page's HTML: published entries (newest first) above the shipped file's text. */
  async changelogHtml(): Promise<{ title: string; html: string }> {
    const page = this.files.page('changelog');
    const entries = (await this.publications.publishedChangelog()).map(
      (e) =>
        `<section><h2>${escapeHtml(e.title)}</h2><p class="muted"><time datetime="${e.published_at!.slice(0, 10)}">${e.published_at!.slice(0, 10)}</time></p>\n${renderMarkdown(e.body)}</section>`,
    );
    return { title: page.title, html: [...entries, page.html].join('\n') };
  }
}

function toPost(p: Publication): BlogPost {
  const summary = p.body.split(/\n\s*\n/).find((block) => block.trim() && !block.trim().startsWith('#')) ?? '';
  return { slug: p.slug!, title: p.title, date: p.published_at!.slice(0, 10), summary: summary.replace(/\s+/g, ' ').trim().slice(0, 300), html: renderMarkdown(p.body) };
}
