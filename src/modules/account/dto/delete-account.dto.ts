import { Equals } from 'class-validator';

export class DeleteAccountDto {
  /** The word DELETE, typed by the person: deleting an account cannot be undone. */
  @Equals('DELETE', { message: 'confirmation must be the word DELETE' })
  confirmation!: string;
}
