import { IsString, Matches } from 'class-validator';
import { HOSTED_DEFAULT_ID } from '../profile-scope.constants';

/** `{scope_id}` of the hosted_default lifecycle routes and tools. */
export class HostedDefaultIdDto {
  /** `global` or an operator-chosen id: lower-case letters, digits, '.', '_' or '-'. */
  @IsString({ message: 'scope_id must be a string' })
  @Matches(HOSTED_DEFAULT_ID, { message: "scope_id must be a hosted_default id (lower-case letters, digits, '.', '_' or '-', at most 63)" })
  scope_id!: string;
}
