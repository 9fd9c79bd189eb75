import { IsOptional } from 'class-validator';
import { ShortName } from './short-name.decorator';
import { validateInput } from './validate-input';

class Answer {
  @IsOptional()
  @ShortName()
  answered_by?: string;
}

describe('ShortName', () => {
  test('accepts a name of 1 to 200 characters as given', async () => {
    for (const answered_by of ['ada', 'agent@build-7', ' Ada Lovelace ', 'x'.repeat(200)]) {
      expect(await validateInput(Answer, { answered_by })).toEqual({ answered_by });
    }
  });

  test('refuses, in class-validator’s words: no string, too long, empty', async () => {
    await expect(validateInput(Answer, { answered_by: 3 })).rejects.toMatchObject({ message: 'answered_by must be a string' });
    await expect(validateInput(Answer, { answered_by: 'x'.repeat(201) })).rejects.toMatchObject({
      message: 'answered_by must be shorter than or equal to 200 characters',
    });
    await expect(validateInput(Answer, { answered_by: '' })).rejects.toMatchObject({ message: 'answered_by should not be empty' });
  });
});
