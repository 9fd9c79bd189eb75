import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator';
import { Principal } from '../../common/auth/principal';
import { PageQueryDto } from '../tasks/dto/page-query.dto';
import { CreateWorkspaceBlogPostDto } from './dto/create-workspace-blog-post.dto';
import { WorkspaceBlogPostView } from './workspace-blog-post.view';
import { WorkspaceBlogService } from './workspace-blog.service';

/** GET, POST /workspace/blog: the workspace's own posts, for its members only. */
@Controller('workspace/blog')
export class WorkspaceBlogController {
  constructor(private readonly blog: WorkspaceBlogService) {}

  @Get()
  list(@Query() query: PageQueryDto): Promise<{ posts: WorkspaceBlogPostView[]; total: number }> {
    return this.blog.list(query);
  }

  @Post()
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateWorkspaceBlogPostDto): Promise<WorkspaceBlogPostView> {
    return this.blog.create(principal, body);
  }
}
