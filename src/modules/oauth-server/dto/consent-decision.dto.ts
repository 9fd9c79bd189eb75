import { IsIn, IsString, MaxLength } from 'class-validator';

/** The consent page's form: the person's answer and the page's CSRF token. */
export class ConsentDecisionDto {
  @IsString()
  @MaxLength(128)
  csrf!: string;

  @IsIn(['approve', 'deny'])
  decision!: 'approve' | 'deny';
}
