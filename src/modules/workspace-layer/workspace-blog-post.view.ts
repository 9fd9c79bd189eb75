import { WorkspaceBlogPost } from './workspace-blog-post.entity';

/** A workspace blog post as the routes answer it. */
export interface WorkspaceBlogPostView {
  id: string;
  title: string;
  body: string;
  author: string | null;
  created_at: string;
}

export function toWorkspaceBlogPostView(post: WorkspaceBlogPost): WorkspaceBlogPostView {
  return { id: post.id, title: post.title, body: post.body, author: post.author, created_at: new Date(post.created_at).toISOString() };
}
