import { randomUUID } from 'node:crypto';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import '../../app.module'; // every input class of every module
import { fieldsOf, inputClasses } from '../../../test/support/input-classes';
import { CreateProjectDto } from '../../modules/projects/dto/create-project.dto';
import { ProjectIdDto } from '../../modules/projects/dto/project-id.dto';
import { passesQuickCheck } from './quick-check';
import { VALIDATION_OPTIONS } from './validate-input';

// Values of every JSON shape, with the ones Baton's inputs commonly accept.
const uuid = randomUUID();
const CORPUS: unknown[] = [
  uuid,
  'not-a-uuid',
  '',
  ' ',
  'hello',
  'A'.repeat(300),
  'x'.repeat(70_000),
  'notes.md',
  '../etc/passwd',
  'pending',
  'done',
  'high',
  'in_progress',
  'worker',
  '🚀',
  '2026-01-01T00:00:00Z',
  '2026-01-01',
  'https://example.com/hook',
  'src/a.ts',
  'feature/x',
  'main',
  0,
  1,
  5,
  42,
  -1,
  1.5,
  1e9,
  true,
  false,
  null,
  [],
  [uuid],
  ['a', 'b'],
  ['src/a.ts'],
  [1, 2],
  [{}],
  {},
  { a: 1 },
  { key: 'value' },
];

function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

describe('the quick validation check', () => {
  test('never accepts what class-validator refuses, for every input class and many inputs', async () => {
    const classes = inputClasses();
    expect(classes.length).toBeGreaterThan(50);
    const random = seeded(7);
    let quick = 0;
    let checked = 0;
    for (const cls of classes) {
      const properties = fieldsOf(cls);
      for (let i = 0; i < 150; i++) {
        const input: Record<string, unknown> = {};
        for (const property of properties) if (random() < 0.75) input[property] = CORPUS[Math.floor(random() * CORPUS.length)];
        if (random() < 0.1) input.unexpected = 'field';
        const instance = plainToInstance(cls, input, { exposeDefaultValues: true });
        if (!passesQuickCheck(instance)) continue;
        quick++;
        const errors = await validate(instance, VALIDATION_OPTIONS);
        checked++;
        expect({ class: cls.name, input, errors: errors.map((e) => e.constraints) }).toEqual({ class: cls.name, input, errors: [] });
      }
    }
    // The check does answer: a good share of these inputs pass it.
    expect(quick).toBe(checked);
    expect(quick).toBeGreaterThan(100);
  });

  test('accepts ordinary valid input and leaves bad input to class-validator', async () => {
    expect(passesQuickCheck(plainToInstance(ProjectIdDto, { project_id: uuid }))).toBe(true);
    expect(passesQuickCheck(plainToInstance(CreateProjectDto, { name: 'Baton' }))).toBe(true);
    expect(passesQuickCheck(plainToInstance(ProjectIdDto, { project_id: 'nope' }))).toBe(false);
    expect(passesQuickCheck(plainToInstance(ProjectIdDto, { project_id: uuid, extra: 1 }))).toBe(false);
    expect(passesQuickCheck(plainToInstance(ProjectIdDto, {}))).toBe(false);
  });
});
