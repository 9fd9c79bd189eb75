import { IsOptional } from 'class-validator';
import { IntQueryParam } from './int-query-param.decorator';
import { validateInput } from './validate-input';

class Timeline {
  @IsOptional()
  @IntQueryParam('limit', { min: 1, max: 500, negative: true })
  limit?: number;
}

class Page {
  @IsOptional()
  @IntQueryParam('limit', { min: 1, max: 200, messages: { min: 'limit must be at least 1', max: 'limit must be at most 200' } })
  limit?: number;

  @IsOptional()
  @IntQueryParam('offset', { min: 0, messages: { integer: 'offset must be a whole number' } })
  offset?: number;
}

const refusal = (message: string) => ({ message });

describe('IntQueryParam', () => {
  test('turns query-string digits into a number, and takes a tool’s JSON number as it is', async () => {
    expect(await validateInput(Timeline, { limit: '20' }, 'query')).toEqual({ limit: 20 });
    expect(await validateInput(Timeline, { limit: 500 }, 'query')).toEqual({ limit: 500 });
    expect(await validateInput(Page, { limit: '007', offset: '0' }, 'query')).toEqual({ limit: 7, offset: 0 });
  });

  test('text that is no plain whole number is refused as not an integer, before any bound', async () => {
    for (const limit of ['abc', '', ' 5', '1.5', '1e3', '0x10', '+5', '1234567890', 1.5, true, [5]]) {
      await expect(validateInput(Timeline, { limit }, 'query')).rejects.toMatchObject(refusal('limit must be an integer'));
    }
  });

  test('the bounds answer in class-validator’s words unless messages gives others', async () => {
    await expect(validateInput(Timeline, { limit: '0' }, 'query')).rejects.toMatchObject(refusal('limit must not be less than 1'));
    await expect(validateInput(Timeline, { limit: '501' }, 'query')).rejects.toMatchObject(refusal('limit must not be greater than 500'));
    await expect(validateInput(Page, { limit: '0' }, 'query')).rejects.toMatchObject(refusal('limit must be at least 1'));
    await expect(validateInput(Page, { limit: 201 }, 'query')).rejects.toMatchObject(refusal('limit must be at most 200'));
    await expect(validateInput(Page, { offset: 'x' }, 'query')).rejects.toMatchObject(refusal('offset must be a whole number'));
    expect(await validateInput(Page, { offset: '999999999' }, 'query')).toEqual({ offset: 999_999_999 });
  });

  test('negative: "-5" is read as a number and refused by the lower bound; otherwise it is text, refused as not an integer', async () => {
    await expect(validateInput(Timeline, { limit: '-5' }, 'query')).rejects.toMatchObject(refusal('limit must not be less than 1'));
    await expect(validateInput(Page, { limit: '-5' }, 'query')).rejects.toMatchObject(refusal('limit must be an integer'));
    await expect(validateInput(Page, { offset: -1 }, 'query')).rejects.toMatchObject(refusal('offset must not be less than 0'));
  });
});
