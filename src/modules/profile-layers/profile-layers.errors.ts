import { assertUnreachable, DomainError } from '../../common/errors/domain-error';

export enum ProfileErrorCode {
  LayerNotFound = 'PROFILE_LAYER_NOT_FOUND',
  ScopeNotFound = 'PROFILE_SCOPE_NOT_FOUND',
  InvalidScope = 'INVALID_SCOPE',
  InvalidField = 'INVALID_FIELD',
  FieldNotAllowed = 'FIELD_NOT_ALLOWED_AT_SCOPE',
  SecretValue = 'SECRET_VALUE',
  MachineLocalPath = 'MACHINE_LOCAL_PATH',
  LooseningNotAllowed = 'LOOSENING_NOT_ALLOWED',
  StaleRevision = 'STALE_REVISION',
  OperatorOnly = 'OPERATOR_ONLY',
  InvalidTransition = 'INVALID_TRANSITION',
  LayerRetired = 'LAYER_RETIRED',
  UnknownHostedDefault = 'UNKNOWN_HOSTED_DEFAULT',
}

export class ProfileError extends DomainError<ProfileErrorCode> {
  private fields?: Record<string, unknown>;

  private static make(code: ProfileErrorCode, detail: string, fields?: Record<string, unknown>) {
    const error = new ProfileError(code, detail);
    error.fields = fields;
    return error;
  }

  static layerNotFound(scopeType: string, scopeId: string) {
    return ProfileError.make(ProfileErrorCode.LayerNotFound, `no ${scopeType} profile layer for ${scopeId}`);
  }

  /** A project or session id that is not the current tenant's: the same answer as a missing one. */
  static scopeNotFound(scopeType: 'project' | 'session', id: string) {
    return ProfileError.make(ProfileErrorCode.ScopeNotFound, `${scopeType} not found: ${id}`);
  }

  static invalidScope(detail: string) {
    return ProfileError.make(ProfileErrorCode.InvalidScope, detail);
  }

  static invalidField(field: string, detail: string) {
    return ProfileError.make(ProfileErrorCode.InvalidField, detail, { field });
  }

  static fieldNotAllowed(field: string, detail: string) {
    return ProfileError.make(ProfileErrorCode.FieldNotAllowed, detail, { field });
  }

  /** Names the field and the kind of secret, never the value. */
  static secretValue(field: string, kind: string) {
    return ProfileError.make(
      ProfileErrorCode.SecretValue,
      `${field} looks like a secret (${kind}); profile layers never store secrets: keep them in the environment of the machine that needs them`,
      { field, secret_kind: kind },
    );
  }

  static machineLocalPath(field: string, kind: string) {
    return ProfileError.make(
      ProfileErrorCode.MachineLocalPath,
      `${field} holds a machine-local path (${kind}); only executor_config.* at project or session scope may carry a path: use a repository-relative path or a URL`,
      { field, path_kind: kind },
    );
  }

  static looseningNotAllowed(field: string, scope: string, tighterSource: string) {
    return ProfileError.make(
      ProfileErrorCode.LooseningNotAllowed,
      `${field} may only be tightened at ${scope} scope (the ${tighterSource} layer sets a tighter value); give override_reason to loosen it`,
      { field, tighter_source: tighterSource },
    );
  }

  static staleRevision(expected: number, current: number) {
    return ProfileError.make(ProfileErrorCode.StaleRevision, `expected_revision ${expected} is stale: the layer is at revision ${current}; read it again and retry`, {
      expected_revision: expected,
      current_revision: current,
    });
  }

  static operatorOnly(what: string) {
    return ProfileError.make(ProfileErrorCode.OperatorOnly, `${what}: hosted_default layers are written only by the operator of this Baton deployment`);
  }

  static invalidTransition(scopeId: string, from: string, action: string, hint?: string) {
    return ProfileError.make(ProfileErrorCode.InvalidTransition, `hosted_default ${scopeId} is ${from}: it cannot be ${action}${hint ? ` (${hint})` : ''}`, { status: from });
  }

  static layerRetired(scopeId: string) {
    return ProfileError.make(ProfileErrorCode.LayerRetired, `hosted_default ${scopeId} is retired and can no longer change`, { status: 'retired' });
  }

  static unknownHostedDefault(id: string) {
    return ProfileError.make(ProfileErrorCode.UnknownHostedDefault, `fields.hosted_default_id names no usable hosted_default layer: ${id}`, { field: 'fields.hosted_default_id' });
  }

  override get extra() {
    return this.fields;
  }

  get httpStatus(): number {
    switch (this.code) {
      case ProfileErrorCode.LayerNotFound:
      case ProfileErrorCode.ScopeNotFound:
        return 404;
      case ProfileErrorCode.InvalidScope:
      case ProfileErrorCode.InvalidField:
      case ProfileErrorCode.FieldNotAllowed:
      case ProfileErrorCode.SecretValue:
      case ProfileErrorCode.MachineLocalPath:
      case ProfileErrorCode.UnknownHostedDefault:
        return 400;
      case ProfileErrorCode.OperatorOnly:
        return 403;
      case ProfileErrorCode.LooseningNotAllowed:
      case ProfileErrorCode.StaleRevision:
      case ProfileErrorCode.InvalidTransition:
      case ProfileErrorCode.LayerRetired:
        return 409;
      default:
        return assertUnreachable(this.code);
    }
  }
}
