import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { AdminAuthorGuard } from './admin-author.guard';
import { CloneProfileLayerDto } from './dto/clone-profile-layer.dto';
import { EffectiveProfileOptionsDto } from './dto/effective-profile-query.dto';
import { HostedDefaultIdDto } from './dto/hosted-default-id.dto';
import { ListProfileLayersQueryDto } from './dto/list-profile-layers-query.dto';
import { ProfileScopeParamsDto } from './dto/profile-scope-params.dto';
import { RevisionsQueryDto } from './dto/revisions-query.dto';
import { SaveProfileLayerDto } from './dto/save-profile-layer.dto';
import { HostedDefaultsService } from './hosted-defaults.service';
import { ProfileLayerRevisionView, ProfileLayerView } from './profile-layer.view';
import { LayerDeleteResult, LayerSaveResult } from './profile-layers.types';
import { ProfileLayersService } from './profile-layers.service';
import { EffectiveProfile, ProfileResolver } from './profile-resolver.service';
import { PROFILE_SCOPES, ProfileScope } from './profile-scope.constants';

@Controller()
@UseGuards(AdminAuthorGuard)
export class ProfileLayersController {
  constructor(
    private readonly layers: ProfileLayersService,
    private readonly hostedDefaults: HostedDefaultsService,
    private readonly resolver: ProfileResolver,
  ) {}

  @Get('profile-layers')
  list(@Query() query: ListProfileLayersQueryDto): Promise<ProfileLayerView[]> {
    return this.layers.list(query);
  }

  /**
   * Declared before GET /profile-layers/{scope_type}/{scope_id}, which has the
   * same shape: `/profile-layers/user/revisions` is the user layer of a person
   * whose id is "revisions" (scope names are never hosted_default ids).
   */
  @Get('profile-layers/:scope_id/revisions')
  revisions(@Param() params: HostedDefaultIdDto, @Query() query: RevisionsQueryDto): Promise<ProfileLayerRevisionView[] | ProfileLayerView> {
    if ((PROFILE_SCOPES as readonly string[]).includes(params.scope_id)) {
      return this.layers.get({ scope_type: params.scope_id as ProfileScope, scope_id: 'revisions' });
    }
    return this.hostedDefaults.revisions(params.scope_id, query.limit);
  }

  @Get('profile-layers/:scope_type/:scope_id')
  get(@Param() params: ProfileScopeParamsDto): Promise<ProfileLayerView> {
    return this.layers.get(params);
  }

  @Put('profile-layers/:scope_type/:scope_id')
  save(@Param() params: ProfileScopeParamsDto, @Body() body: SaveProfileLayerDto): Promise<LayerSaveResult> {
    return this.layers.save(params, body);
  }

  @Delete('profile-layers/:scope_type/:scope_id')
  @HttpCode(200)
  reset(@Param() params: ProfileScopeParamsDto): Promise<LayerDeleteResult> {
    return this.layers.reset(params);
  }

  @Post('profile-layers/:scope_type/:scope_id/clone')
  @HttpCode(200)
  clone(@Param() params: ProfileScopeParamsDto, @Body() body: CloneProfileLayerDto): Promise<LayerSaveResult> {
    return this.layers.clone(params, body);
  }

  @Post('profile-layers/:scope_id/activate')
  @HttpCode(200)
  activate(@Param() params: HostedDefaultIdDto): Promise<ProfileLayerView> {
    return this.hostedDefaults.transition(params.scope_id, 'activate');
  }

  @Post('profile-layers/:scope_id/deprecate')
  @HttpCode(200)
  deprecate(@Param() params: HostedDefaultIdDto): Promise<ProfileLayerView> {
    return this.hostedDefaults.transition(params.scope_id, 'deprecate');
  }

  @Post('profile-layers/:scope_id/retire')
  @HttpCode(200)
  retire(@Param() params: HostedDefaultIdDto): Promise<ProfileLayerView> {
    return this.hostedDefaults.transition(params.scope_id, 'retire');
  }

  @Get('projects/:project_id/effective-profile')
  effective(@Param() params: ProjectIdDto, @Query() query: EffectiveProfileOptionsDto): Promise<EffectiveProfile> {
    return this.resolver.effective({ ...query, project_id: params.project_id });
  }
}
