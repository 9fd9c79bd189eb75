import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';

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

const STATUS: StatusTable<ProfileErrorCode> = {
  [ProfileErrorCode.LayerNotFound]: HttpStatus.NOT_FOUND,
  [ProfileErrorCode.ScopeNotFound]: HttpStatus.NOT_FOUND,
  [ProfileErrorCode.InvalidScope]: HttpStatus.BAD_REQUEST,
  [ProfileErrorCode.InvalidField]: HttpStatus.BAD_REQUEST,
  [ProfileErrorCode.FieldNotAllowed]: HttpStatus.BAD_REQUEST,
  [ProfileErrorCode.SecretValue]: HttpStatus.BAD_REQUEST,
  [ProfileErrorCode.MachineLocalPath]: HttpStatus.BAD_REQUEST,
  [ProfileErrorCode.UnknownHostedDefault]: HttpStatus.BAD_REQUEST,
  [ProfileErrorCode.OperatorOnly]: HttpStatus.FORBIDDEN,
  [ProfileErrorCode.LooseningNotAllowed]: HttpStatus.CONFLICT,
  [ProfileErrorCode.StaleRevision]: HttpStatus.CONFLICT,
  [ProfileErrorCode.InvalidTransition]: HttpStatus.CONFLICT,
  [ProfileErrorCode.LayerRetired]: HttpStatus.CONFLICT,
};

export class ProfileError extends DomainErrorOf(STATUS) {
  static layerNotFound(scopeType: string, scopeId: string) {
    return new ProfileError(ProfileErrorCode.LayerNotFound, `no ${scopeType} profile layer for ${scopeId}`);
  }

  /** A project or session id that is not the current tenant's: the same answer as a missing one. */
  static scopeNotFound(scopeType: 'project' | 'session', id: string) {
    return new ProfileError(ProfileErrorCode.ScopeNotFound, `${scopeType} not found: ${id}`);
  }

  static invalidScope(detail: string) {
    return new ProfileError(ProfileErrorCode.InvalidScope, detail);
  }

  static invalidField(field: string, detail: string) {
    return new ProfileError(ProfileErrorCode.InvalidField, detail, { field });
  }

  static fieldNotAllowed(field: string, detail: string) {
    return new ProfileError(ProfileErrorCode.FieldNotAllowed, detail, { field });
  }

  /** Names the field and the kind of secret, never the value. */
  static secretValue(field: string, kind: string) {
    return new ProfileError(
      ProfileErrorCode.SecretValue,
      `${field} looks like a secret (${kind}); profile layers never store secrets: keep them in the environment of the machine that needs them`,
      { field, secret_kind: kind },
    );
  }

  static machineLocalPath(field: string, kind: string) {
    return new ProfileError(
      ProfileErrorCode.MachineLocalPath,
      `${field} holds a machine-local path (${kind}); only executor_config.* at project or session scope may carry a path: use a repository-relative path or a URL`,
      { field, path_kind: kind },
    );
  }

  static looseningNotAllowed(field: string, scope: string, tighterSource: string) {
    return new ProfileError(
      ProfileErrorCode.LooseningNotAllowed,
      `${field} may only be tightened at ${scope} scope (the ${tighterSource} layer sets a tighter value); give override_reason to loosen it`,
      { field, tighter_source: tighterSource },
    );
  }

  static staleRevision(expected: number, current: number) {
    return new ProfileError(ProfileErrorCode.StaleRevision, `expected_revision ${expected} is stale: the layer is at revision ${current}; read it again and retry`, {
      expected_revision: expected,
      current_revision: current,
    });
  }

  static operatorOnly(what: string) {
    return new ProfileError(ProfileErrorCode.OperatorOnly, `${what}: hosted_default layers are written only by the operator of this Baton deployment`);
  }

  static invalidTransition(scopeId: string, from: string, action: string, hint?: string) {
    return new ProfileError(ProfileErrorCode.InvalidTransition, `hosted_default ${scopeId} is ${from}: it cannot be ${action}${hint ? ` (${hint})` : ''}`, { status: from });
  }

  static layerRetired(scopeId: string) {
    return new ProfileError(ProfileErrorCode.LayerRetired, `hosted_default ${scopeId} is retired and can no longer change`, { status: 'retired' });
  }

  static unknownHostedDefault(id: string) {
    return new ProfileError(ProfileErrorCode.UnknownHostedDefault, `fields.hosted_default_id names no usable hosted_default layer: ${id}`, { field: 'fields.hosted_default_id' });
  }
}
