import { IsOptional } from 'class-validator';
import { BoolQueryParam } from './bool-query-param.decorator';
import { validateInput } from './validate-input';

class Decisions {
  @IsOptional()
  @BoolQueryParam('include_superseded')
  include_superseded?: boolean;
}

describe('BoolQueryParam', () => {
  test('true and false, as text or JSON, are booleans', async () => {
    expect(await validateInput(Decisions, { include_superseded: 'true' }, 'query')).toEqual({ include_superseded: true });
    expect(await validateInput(Decisions, { include_superseded: 'false' }, 'query')).toEqual({ include_superseded: false });
    expect(await validateInput(Decisions, { include_superseded: true }, 'query')).toEqual({ include_superseded: true });
  });

  test('anything else is refused, naming the field', async () => {
    for (const include_superseded of ['TRUE', '1', 'yes', '', 1, ['true']]) {
      await expect(validateInput(Decisions, { include_superseded }, 'query')).rejects.toMatchObject({
        message: 'include_superseded must be true or false',
      });
    }
  });
});
