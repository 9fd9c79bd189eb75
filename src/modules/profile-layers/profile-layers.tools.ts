import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { DESTRUCTIVE, IDEMPOTENT_UPDATE, READ_ONLY } from '../../mcp/tool-annotations';
import { CloneProfileLayerWithSourceDto } from './dto/clone-profile-layer-with-source.dto';
import { EffectiveProfileQueryDto } from './dto/effective-profile-query.dto';
import { HostedDefaultIdDto } from './dto/hosted-default-id.dto';
import { ListProfileLayersQueryDto } from './dto/list-profile-layers-query.dto';
import { ProfileScopeParamsDto } from './dto/profile-scope-params.dto';
import { RevisionsQueryDto } from './dto/revisions-query.dto';
import { SaveProfileLayerDto } from './dto/save-profile-layer.dto';
import { HostedDefaultsService } from './hosted-defaults.service';
import { ProfileLayersService } from './profile-layers.service';
import { ProfileResolver } from './profile-resolver.service';

@Injectable()
export class ProfileLayersTools {
  constructor(
    private readonly layers: ProfileLayersService,
    private readonly hostedDefaults: HostedDefaultsService,
    private readonly resolver: ProfileResolver,
  ) {}

  @McpTool({
    name: 'list_profile_layers',
    annotations: READ_ONLY,
    description: 'List stored profile layers, optionally by scope_type, scope_id or project_id.',
    input: ListProfileLayersQueryDto,
  })
  list(input: ListProfileLayersQueryDto) {
    return this.layers.list(input);
  }

  @McpTool({
    name: 'get_profile_layer',
    annotations: READ_ONLY,
    description: 'Read one profile layer as stored (fields, reset_fields, revision, provenance).',
    input: ProfileScopeParamsDto,
  })
  get(input: ProfileScopeParamsDto) {
    return this.layers.get(input);
  }

  @McpTool({
    name: 'save_profile_layer',
    annotations: DESTRUCTIVE,
    description:
      "Replace a scope's profile layer wholesale. Pass expected_revision (0 for a new layer) to be refused with STALE_REVISION when it moved on. Narrow-only dials (hitl_auto_answer, require_merge_approval, executor_config.test_min, claim_verification_mode) can only be tightened unless override_reason is given. Secrets and machine-local paths are refused.",
    params: ProfileScopeParamsDto,
    body: SaveProfileLayerDto,
  })
  save(params: ProfileScopeParamsDto, body: SaveProfileLayerDto) {
    return this.layers.save(params, body);
  }

  @McpTool({
    name: 'clone_profile_layer',
    annotations: DESTRUCTIVE,
    description: "Copy a layer's fields and reset_fields to another scope (checked like a save there).",
    input: CloneProfileLayerWithSourceDto,
  })
  clone(input: CloneProfileLayerWithSourceDto) {
    return this.layers.clone({ scope_type: input.source_scope_type, scope_id: input.source_scope_id }, input);
  }

  @McpTool({
    name: 'activate_profile_layer',
    annotations: IDEMPOTENT_UPDATE,
    description: 'Put a hosted_default layer in effect (draft or deprecated to active). Operator only.',
    input: HostedDefaultIdDto,
  })
  activate(input: HostedDefaultIdDto) {
    return this.hostedDefaults.transition(input.scope_id, 'activate');
  }

  @McpTool({
    name: 'deprecate_profile_layer',
    annotations: IDEMPOTENT_UPDATE,
    description: 'Mark an active hosted_default deprecated: it still applies, profiles using it report degraded. Operator only.',
    input: HostedDefaultIdDto,
  })
  deprecate(input: HostedDefaultIdDto) {
    return this.hostedDefaults.transition(input.scope_id, 'deprecate');
  }

  @McpTool({
    name: 'retire_profile_layer',
    annotations: DESTRUCTIVE,
    description: 'Retire a draft or deprecated hosted_default: it stops applying, for good. Operator only.',
    input: HostedDefaultIdDto,
  })
  retire(input: HostedDefaultIdDto) {
    return this.hostedDefaults.transition(input.scope_id, 'retire');
  }

  @McpTool({
    name: 'reset_profile_layer',
    annotations: DESTRUCTIVE,
    description: "Delete a scope's profile layer row (its fields fall back to less specific layers).",
    input: ProfileScopeParamsDto,
  })
  reset(input: ProfileScopeParamsDto) {
    return this.layers.reset(input);
  }

  @McpTool({
    name: 'get_profile_layer_revisions',
    annotations: READ_ONLY,
    description: 'Audit trail of a hosted_default layer, newest first (limit default 50, at most 500).',
    params: HostedDefaultIdDto,
    body: RevisionsQueryDto,
  })
  revisions(params: HostedDefaultIdDto, query: RevisionsQueryDto) {
    return this.hostedDefaults.revisions(params.scope_id, query.limit);
  }

  @McpTool({
    name: 'get_effective_profile',
    annotations: READ_ONLY,
    description:
      "Resolve a project's profile field by field (hosted_default, workspace, user, project, session): each field's value and source scope, executable/degraded, generation_key, restart_required and restart_report.",
    input: EffectiveProfileQueryDto,
  })
  effective(input: EffectiveProfileQueryDto) {
    return this.resolver.effective(input);
  }
}
