export { canonicalAddress, classifyAddress, parseIpv4Loose } from './address-classifier';
export type { AddressClass } from './address-classifier';
export { OutboundGuard, OutboundRefusedError, pinnedLookup } from './outbound-guard';
export type { CheckedTarget, OutboundGuardOptions } from './outbound-guard';
