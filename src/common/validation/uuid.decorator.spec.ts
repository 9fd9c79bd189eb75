import { IsOptional } from 'class-validator';
import { Uuid } from './uuid.decorator';
import { validateInput } from './validate-input';

class Claim {
  @Uuid()
  session_id!: string;

  @IsOptional()
  @Uuid({ each: true })
  ids?: string[];
}

const session_id = '3f2b8c1e-5d4a-4b6c-9e8f-1a2b3c4d5e6f';

describe('Uuid', () => {
  test('accepts a UUID of any version, in either case', async () => {
    for (const id of [session_id, session_id.toUpperCase(), '00000000-0000-1000-8000-000000000000']) {
      expect(await validateInput(Claim, { session_id: id })).toEqual({ session_id: id });
    }
  });

  test('refuses anything else, naming the field', async () => {
    for (const id of ['not-a-uuid', '', `${session_id} `, session_id.replace(/-/g, ''), 42, null]) {
      await expect(validateInput(Claim, { session_id: id })).rejects.toMatchObject({ message: 'session_id must be a UUID' });
    }
    await expect(validateInput(Claim, {})).rejects.toMatchObject({ message: 'session_id is required' });
  });

  test('each: every value of the array must be one', async () => {
    expect(await validateInput(Claim, { session_id, ids: [session_id] })).toEqual({ session_id, ids: [session_id] });
    await expect(validateInput(Claim, { session_id, ids: [session_id, 'nope'] })).rejects.toMatchObject({ message: 'each value in ids must be a UUID' });
  });
});
