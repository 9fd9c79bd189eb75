import { Injectable } from '@nestjs/common';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { renderMarkdown, splitFrontMatter } from './markdown.util';

/** A blog post file's name (without .md) is its slug: lower-case words joined by dashes. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export interface BlogPost {
  slug: string;
  title: string;
  /** YYYY-MM-DD, from the file's front matter. */
  date: string;
  summary: string;
  html: string;
}

export interface ContentPage {
  title: string;
  html: string;
}

/** The checkout this code runs from (src/ or dist/src/): the folder holding package.json and `name`. */
export function checkoutFolder(name: string): string {
  for (let dir = __dirname, i = 0; i < 6; dir = dirname(dir), i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, name))) return join(dir, name);
  }
  return join(process.cwd(), name);
}

/**
 * The public pages' text: markdown files under content/ in the repository (no store of blog posts
 * or changelog entries exists yet; an editor may later write them). Read once at start: the files
 * ship with the release.
 */
@Injectable()
export class SiteContent {
  private readonly root = checkoutFolder('content');
  private readonly pages = new Map<string, ContentPage>();
  private readonly posts: BlogPost[];

  constructor() {
    for (const name of ['terms', 'privacy', 'changelog']) this.pages.set(name, this.readPage(name));
    this.posts = this.readPosts();
  }

  page(name: 'terms' | 'privacy' | 'changelog'): ContentPage {
    return this.pages.get(name)!;
  }

  /** Newest first. */
  blog(): BlogPost[] {
    return this.posts;
  }

  post(slug: string): BlogPost | undefined {
    return this.posts.find((p) => p.slug === slug);
  }

  private readPage(name: string): ContentPage {
    const { fields, body } = splitFrontMatter(readFileSync(join(this.root, `${name}.md`), 'utf8'));
    return { title: fields.title ?? name, html: renderMarkdown(body) };
  }

  private readPosts(): BlogPost[] {
    const folder = join(this.root, 'blog');
    if (!existsSync(folder)) return [];
    return readdirSync(folder)
      .filter((file) => file.endsWith('.md') && SLUG.test(file.slice(0, -3)))
      .map((file) => {
        const { fields, body } = splitFrontMatter(readFileSync(join(folder, file), 'utf8'));
        return { slug: file.slice(0, -3), title: fields.title ?? file, date: fields.date ?? '', summary: fields.summary ?? '', html: renderMarkdown(body) };
      })
      .sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));
  }
}
