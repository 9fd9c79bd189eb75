import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { TenantIdDto } from '../push/dto/tenant-id.dto';
import { FilesystemRootDto } from './dto/filesystem-root.dto';
import { ActiveRepoDto, CustomPluginDto, PluginNameDto, PluginOverridesDto } from './dto/plugin-overrides.dto';
import { RegistryQueryDto } from './dto/registry-query.dto';
import { TunnelInstallService } from './tunnel-install.service';
import { TunnelRegistryService } from './tunnel-registry.service';
import { TunnelService } from './tunnel.service';

/** The tunnel's routes (service spec §4); `/tunnel/diagnostics` is the push module's, with this module's layers. */
@Controller('tunnel')
export class TunnelController {
  constructor(
    private readonly tunnel: TunnelService,
    private readonly registry: TunnelRegistryService,
    private readonly installer: TunnelInstallService,
  ) {}

  @Get('status/:tenant_id')
  status(@Param() params: TenantIdDto) {
    return this.tunnel.status(params.tenant_id);
  }

  @Get('launch-matrix/:tenant_id')
  launchMatrix(@Param() params: TenantIdDto) {
    return this.tunnel.launchMatrix(params.tenant_id);
  }

  @Get('manifest')
  manifest() {
    return this.tunnel.manifest();
  }

  @Post('refresh')
  @HttpCode(200)
  refresh() {
    return this.tunnel.refresh();
  }

  @Post('active-repo')
  @HttpCode(200)
  activeRepo(@Body() body: ActiveRepoDto) {
    return this.tunnel.setActiveRepo(body.path);
  }

  @Get('filesystem-roots')
  roots() {
    return this.tunnel.roots();
  }

  @Post('filesystem-roots')
  @HttpCode(201)
  addRoot(@Body() body: FilesystemRootDto) {
    return this.tunnel.addRoot(body.path);
  }

  @Delete('filesystem-roots')
  removeRoot(@Body() body: FilesystemRootDto) {
    return this.tunnel.removeRoot(body.path);
  }

  @Get('plugins')
  plugins() {
    return this.tunnel.plugins();
  }

  @Put('plugins')
  setOverrides(@Body() body: PluginOverridesDto) {
    return this.tunnel.setOverrides(body.overrides);
  }

  @Get('plugins/check')
  check(@Query() query: PluginNameDto) {
    return this.tunnel.check(query.name);
  }

  @Post('plugins/custom')
  @HttpCode(201)
  addCustom(@Body() body: CustomPluginDto) {
    return this.tunnel.addCustom(body);
  }

  @Delete('plugins/custom')
  removeCustom(@Body() body: PluginNameDto) {
    return this.tunnel.removeCustom(body.name);
  }

  @Post('plugins/install')
  @HttpCode(200)
  install(@Body() body: PluginNameDto) {
    return this.installer.install(body.name);
  }

  @Get('registry')
  registryList(@Query() query: RegistryQueryDto) {
    return this.registry.list(query);
  }
}
