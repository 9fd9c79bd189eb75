export { findSecret, isMachineLocalPath, type MachineLocalPathKind, type SecretKind } from './detect';
export { redactSecrets } from './redact';
