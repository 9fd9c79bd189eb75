import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';

export enum BillingErrorCode {
  NotHosted = 'BILLING_NOT_HOSTED',
  NotConfigured = 'BILLING_NOT_CONFIGURED',
  PersonRequired = 'PERSON_REQUIRED',
  NotAllowed = 'NOT_ALLOWED',
  NoSubscription = 'NO_SUBSCRIPTION',
  BadSignature = 'BAD_SIGNATURE',
  NotJson = 'INVALID_INPUT',
  ProviderUnavailable = 'BILLING_PROVIDER_UNAVAILABLE',
  ComputeCapReached = 'COMPUTE_CAP_REACHED',
  StorageCapReached = 'STORAGE_CAP_REACHED',
}

const STATUS: StatusTable<BillingErrorCode> = {
  [BillingErrorCode.NotHosted]: HttpStatus.NOT_FOUND,
  [BillingErrorCode.NotConfigured]: HttpStatus.NOT_FOUND,
  [BillingErrorCode.PersonRequired]: HttpStatus.FORBIDDEN,
  [BillingErrorCode.NotAllowed]: HttpStatus.FORBIDDEN,
  [BillingErrorCode.NoSubscription]: HttpStatus.CONFLICT,
  [BillingErrorCode.BadSignature]: HttpStatus.BAD_REQUEST,
  [BillingErrorCode.NotJson]: HttpStatus.BAD_REQUEST,
  [BillingErrorCode.ProviderUnavailable]: HttpStatus.BAD_GATEWAY,
  [BillingErrorCode.ComputeCapReached]: HttpStatus.PAYMENT_REQUIRED,
  [BillingErrorCode.StorageCapReached]: HttpStatus.INSUFFICIENT_STORAGE,
};

/** Refusals about plans, checkout, the billing portal and the billing webhooks. */
export class BillingError extends DomainErrorOf(STATUS) {
  static notHosted() {
    return new BillingError(BillingErrorCode.NotHosted, 'billing exists in hosted mode only: a self-hosted Baton has every feature without a plan');
  }

  static notConfigured(what: string) {
    return new BillingError(BillingErrorCode.NotConfigured, `${what} is not configured on this server`);
  }

  static personRequired() {
    return new BillingError(BillingErrorCode.PersonRequired, "billing needs a signed-in owner or admin (the web session), not a workspace's API token");
  }

  static notAllowed() {
    return new BillingError(BillingErrorCode.NotAllowed, 'your role in this workspace does not allow managing its billing: ask an owner or admin');
  }

  static noSubscription() {
    return new BillingError(BillingErrorCode.NoSubscription, 'this workspace has no subscription yet: upgrade through GET /checkout first');
  }

  static badSignature(header: string) {
    return new BillingError(BillingErrorCode.BadSignature, `${header}: the signature does not match this body (or is too old); nothing was applied`);
  }

  static notJson() {
    return new BillingError(BillingErrorCode.NotJson, 'body: a signed event must be a JSON object; nothing was applied');
  }

  static computeCapReached(month: string) {
    return new BillingError(
      BillingErrorCode.ComputeCapReached,
      `this workspace used the compute its plan includes for ${month} and its overage cap (compute_overage_cap_usd): raise the cap in PATCH /settings/usage, or upgrade`,
    );
  }

  static storageCapReached() {
    return new BillingError(
      BillingErrorCode.StorageCapReached,
      'this workspace holds the storage its plan includes and its overage cap (storage_overage_cap_gb): delete data, raise the cap in PATCH /settings/usage, or upgrade',
    );
  }

  static providerUnavailable() {
    return new BillingError(BillingErrorCode.ProviderUnavailable, 'the payment provider did not answer: try again in a moment');
  }
}
