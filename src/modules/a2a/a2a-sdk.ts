import type * as A2aSdk from '@a2a-js/sdk';

/**
 * The A2A SDK (the protocol's types and their JSON forms), loaded with the first A2A call rather
 * than at boot: its entry point also loads a JOSE library (about 50 ES modules) for signed agent
 * cards, which Baton does not sign, and an instance no agent calls never needs either.
 */
export function a2aSdk(): typeof A2aSdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above); Node keeps it after
  return require('@a2a-js/sdk') as typeof A2aSdk;
}
