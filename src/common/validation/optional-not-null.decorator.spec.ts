import { IsIn } from 'class-validator';
import { OptionalNotNull } from './optional-not-null.decorator';
import { validateInput } from './validate-input';

class Item {
  @OptionalNotNull()
  @IsIn(['low', 'high'], { message: 'priority must be low or high' })
  priority?: string;
}

describe('OptionalNotNull', () => {
  test('a field left out is not checked', async () => {
    expect(await validateInput(Item, {})).toEqual({});
  });

  test('null is checked like any other value, and refused', async () => {
    await expect(validateInput(Item, { priority: null })).rejects.toMatchObject({ message: 'priority must be low or high' });
    expect(await validateInput(Item, { priority: 'high' })).toEqual({ priority: 'high' });
  });
});
