import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { isUniqueViolation } from '../../common/errors/db-errors';
import { CreateBlogPostDto } from './dto/create-blog-post.dto';
import { CreateChangelogEntryDto } from './dto/create-changelog-entry.dto';
import { UpdateBlogPostDto } from './dto/update-blog-post.dto';
import { UpdateChangelogEntryDto } from './dto/update-changelog-entry.dto';
import { SiteError } from './site.errors';
import { isoTime, SiteDb } from './site-db';

export interface Publication {
  id: string;
  slug?: string;
  title: string;
  body: string;
  published: boolean;
  published_at: string | null;
  created_at: string;
  updated_at: string;
}

type Kind = { table: 'site_blog_posts' | 'site_changelog_entries'; what: string; slug: boolean };
const BLOG: Kind = { table: 'site_blog_posts', what: 'blog post', slug: true };
const CHANGELOG: Kind = { table: 'site_changelog_entries', what: 'changelog entry', slug: false };

type Row = Omit<Publication, 'published' | 'published_at' | 'created_at' | 'updated_at'> & Record<'published_at' | 'created_at' | 'updated_at', Date | string | null>;

/**
 * Blog posts and changelog entries: written by admins, drafts until published
 * (publishing stamps `published_at` once; unpublishing clears it), read by
 * everyone once published, newest first.
 */
@Injectable()
export class Publications {
  constructor(private readonly db: SiteDb) {}

  publishedPosts = () => this.list(BLOG, true);
  allPosts = () => this.list(BLOG, false);
  publishedChangelog = () => this.list(CHANGELOG, true);
  allChangelog = () => this.list(CHANGELOG, false);
  createPost = (input: CreateBlogPostDto) => this.create(BLOG, input);
  updatePost = (id: string, input: UpdateBlogPostDto) => this.update(BLOG, id, input);
  deletePost = (id: string) => this.remove(BLOG, id);
  createChangelog = (input: CreateChangelogEntryDto) => this.create(CHANGELOG, input);
  updateChangelog = (id: string, input: UpdateChangelogEntryDto) => this.update(CHANGELOG, id, input);
  deleteChangelog = (id: string) => this.remove(CHANGELOG, id);
  changelogEntry = (id: string) => this.one(CHANGELOG, 'id', id, false);
  post = (id: string) => this.one(BLOG, 'id', id, false);

  /** GET /api/blog-posts/{slug}: a draft is not found, like a slug that never existed. */
  publishedPost(slug: string): Promise<Publication> {
    return this.one(BLOG, 'slug', slug, true);
  }

  private async list(kind: Kind, publishedOnly: boolean): Promise<Publication[]> {
    const where = publishedOnly ? 'WHERE published_at IS NOT NULL ORDER BY published_at DESC' : 'ORDER BY created_at DESC';
    return (await this.db.query<Row>(`SELECT ${columns(kind)} FROM {${kind.table}} ${where}`)).map(view);
  }

  private async one(kind: Kind, by: 'id' | 'slug', value: string, publishedOnly: boolean): Promise<Publication> {
    const [row] = await this.db.query<Row>(`SELECT ${columns(kind)} FROM {${kind.table}} WHERE ${by} = ?${publishedOnly ? ' AND published_at IS NOT NULL' : ''}`, [value]);
    if (!row) throw SiteError.notFound(kind.what, value);
    return view(row);
  }

  private async create(kind: Kind, input: CreateChangelogEntryDto & { slug?: string }): Promise<Publication> {
    const id = randomUUID();
    const now = new Date();
    const names = ['id', 'title', 'body', 'published_at', 'created_at', 'updated_at', ...(kind.slug ? ['slug'] : [])];
    const values = [id, input.title, input.body, input.published ? now : null, now, now, ...(kind.slug ? [input.slug] : [])];
    await this.write(kind, input.slug, () => this.db.query(`INSERT INTO {${kind.table}} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`, values));
    return this.one(kind, 'id', id, false);
  }

  private async update(kind: Kind, id: string, input: UpdateChangelogEntryDto & { slug?: string }): Promise<Publication> {
    const current = await this.one(kind, 'id', id, false);
    const sets: string[] = ['updated_at = ?'];
    const values: unknown[] = [new Date()];
    for (const field of ['title', 'body', ...(kind.slug ? ['slug'] : [])] as const) {
      const value = (input as Record<string, unknown>)[field];
      if (value === undefined || value === null) continue;
      sets.push(`${field} = ?`);
      values.push(value);
    }
    if (typeof input.published === 'boolean' && input.published !== current.published) {
      sets.push('published_at = ?');
      values.push(input.published ? new Date() : null);
    }
    await this.write(kind, input.slug, () => this.db.query(`UPDATE {${kind.table}} SET ${sets.join(', ')} WHERE id = ?`, [...values, id]));
    return this.one(kind, 'id', id, false);
  }

  private async remove(kind: Kind, id: string): Promise<Publication> {
    const gone = await this.one(kind, 'id', id, false);
    await this.db.query(`DELETE FROM {${kind.table}} WHERE id = ?`, [id]);
    return gone;
  }

  private async write(kind: Kind, slug: string | undefined, work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (error) {
      if (kind.slug && slug && isUniqueViolation(error)) throw SiteError.slugTaken(slug);
      throw error;
    }
  }
}

function columns(kind: Kind): string {
  return `id, ${kind.slug ? 'slug, ' : ''}title, body, published_at, created_at, updated_at`;
}

function view(row: Row): Publication {
  return { ...row, published: row.published_at !== null, published_at: isoTime(row.published_at), created_at: isoTime(row.created_at)!, updated_at: isoTime(row.updated_at)! };
}
