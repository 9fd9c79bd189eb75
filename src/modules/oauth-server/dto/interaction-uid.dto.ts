import { Matches } from 'class-validator';

/** The id of one authorization request's consent page, as oidc-provider made it. */
export class InteractionUidDto {
  @Matches(/^[A-Za-z0-9_-]{8,64}$/, { message: 'uid must be the id of an authorization request' })
  uid!: string;
}
