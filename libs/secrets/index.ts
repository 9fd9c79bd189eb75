export { redactSecrets } from './redact';
