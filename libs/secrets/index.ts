export { findSecret, isMachineLocalPath, MachineLocalPathKind, SecretKind } from './detect';
export { redactSecrets } from './redact';
