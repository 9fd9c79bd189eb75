import { IsString } from 'class-validator';
import { RequiredOrNull } from './required-or-null.decorator';
import { validateInput } from './validate-input';

class Icon {
  @RequiredOrNull()
  @IsString({ message: 'icon must be one emoji, or null to clear it' })
  icon!: string | null;
}

describe('RequiredOrNull', () => {
  test('null is accepted and kept: it clears the field', async () => {
    expect(await validateInput(Icon, { icon: null })).toEqual({ icon: null });
  });

  test('a missing field is refused by the field’s rules, and so is a bad value', async () => {
    await expect(validateInput(Icon, {})).rejects.toMatchObject({ message: 'icon is required' });
    await expect(validateInput(Icon, { icon: 7 })).rejects.toMatchObject({ message: 'icon must be one emoji, or null to clear it' });
    expect(await validateInput(Icon, { icon: '🚀' })).toEqual({ icon: '🚀' });
  });
});
