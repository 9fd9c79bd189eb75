import { IsBoolean, IsOptional } from 'class-validator';
import { QueryBool } from './query-bool.transform';
import { validateInput } from './validate-input';

class Decisions {
  @IsOptional()
  @QueryBool()
  @IsBoolean({ message: 'include_superseded must be true or false' })
  include_superseded?: boolean;
}

const refusal = (message: string) => ({ message });

describe('QueryBool', () => {
  test('true and false, as text or JSON, are booleans; anything else is refused by the boolean rule', async () => {
    expect(await validateInput(Decisions, { include_superseded: 'true' }, 'query')).toEqual({ include_superseded: true });
    expect(await validateInput(Decisions, { include_superseded: false }, 'query')).toEqual({ include_superseded: false });
    for (const include_superseded of ['TRUE', '1', 'yes', 1]) {
      await expect(validateInput(Decisions, { include_superseded }, 'query')).rejects.toMatchObject(refusal('include_superseded must be true or false'));
    }
  });
});
