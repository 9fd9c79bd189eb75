import { IsInt } from 'class-validator';
import { OptionalField } from './optional-field.decorator';
import { validateInput } from './validate-input';

class Page {
  @OptionalField()
  @IsInt({ message: 'limit must be an integer' })
  limit?: number;
}

describe('OptionalField', () => {
  test('a field left out, or given as null, is not given: no rule applies and no value is kept', async () => {
    expect(await validateInput(Page, {})).toEqual({});
    const page = await validateInput(Page, { limit: null });
    expect(page.limit).toBeUndefined();
  });

  test('any other value must pass the field’s rules', async () => {
    expect(await validateInput(Page, { limit: 5 })).toEqual({ limit: 5 });
    await expect(validateInput(Page, { limit: 'five' })).rejects.toMatchObject({ message: 'limit must be an integer' });
  });
});
