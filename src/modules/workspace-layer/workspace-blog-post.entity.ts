import { Column, Entity } from 'typeorm';
import { PrimaryIdColumn, TimestampColumn } from '../../database/columns';

/** A post of the workspace's own blog: read by its members, written by its owners and admins. */
@Entity('workspace_blog_posts')
export class WorkspaceBlogPost {
  @PrimaryIdColumn()
  id!: string;

  @Column('text')
  title!: string;

  /** Markdown. */
  @Column('text')
  body!: string;

  /** The writer's address (hosted); null self-hosted, where the operator writes. */
  @Column('text', { nullable: true })
  author!: string | null;

  @TimestampColumn()
  created_at!: Date;
}
