import { randomUUID } from 'node:crypto';
import { plainToInstance, Transform, Type } from 'class-transformer';
import { IsOptional, IsString } from 'class-validator';
import '../../app.module'; // every input class of every module
import { fieldsOf, InputClass, inputClasses } from '../../../test/support/input-classes';
import { HookQueryDto } from '../../modules/hooks/dto/hook-query.dto';
import { ProjectIdDto } from '../../modules/projects/dto/project-id.dto';
import { plainCopy } from './plain-copy';

const SCALARS: unknown[] = [randomUUID(), '', 'hello', '5', 'ünïcode 🚀', 0, 7, -1, 1.5, true, false, null];

/** Inputs of `fields` with scalar values: each field alone with every value, then all of them, in two orders. */
function flatInputs(fields: string[]): Record<string, unknown>[] {
  const inputs: Record<string, unknown>[] = [{}];
  for (const field of fields) for (const value of SCALARS) inputs.push({ [field]: value });
  inputs.push(Object.fromEntries(fields.map((field, i) => [field, SCALARS[i % SCALARS.length]])));
  inputs.push(Object.fromEntries([...fields].reverse().map((field, i) => [field, SCALARS[(i + 3) % SCALARS.length]])));
  return inputs;
}

const convert = (cls: InputClass, input: object) => plainToInstance(cls, input, { exposeDefaultValues: true });

describe('plainCopy', () => {
  test('makes what class-transformer makes of flat input, for every input class it copies', () => {
    const classes = inputClasses();
    let copied = 0;
    for (const cls of classes) {
      for (const input of flatInputs(fieldsOf(cls))) {
        const copy = plainCopy(cls, input);
        if (copy === undefined) continue;
        copied++;
        const expected = convert(cls, input);
        expect(Object.getPrototypeOf(copy)).toBe(cls.prototype);
        expect(copy).toStrictEqual(expected);
        expect(Object.keys(copy)).toEqual(Object.keys(expected));
      }
    }
    // Most of Baton's input classes are flat: the copy is the common path, not a corner.
    expect(copied).toBeGreaterThan(classes.length * 5);
  });

  test('a path parameter is copied into its class, defaults kept for what the input leaves out', () => {
    const id = randomUUID();
    const copy = plainCopy(ProjectIdDto, { project_id: id });
    expect(copy).toBeInstanceOf(ProjectIdDto);
    expect(copy).toEqual({ project_id: id });

    class WithDefault {
      @IsString() name = 'unnamed';
      @IsOptional() @IsString() note?: string;
    }
    expect(plainCopy(WithDefault, { note: 'n' })).toStrictEqual(convert(WithDefault, { note: 'n' }));
    expect(plainCopy(WithDefault, { note: 'n' })).toEqual({ name: 'unnamed', note: 'n' });
  });

  test('leaves to class-transformer what it would do more than copy', () => {
    // A field it transforms (Baton's own: an empty project name means none).
    expect(plainCopy(HookQueryDto, { project: '' })).toBeUndefined();
    expect(convert(HookQueryDto, { project: '' })).toEqual({ project: undefined });

    class Nested {
      @IsString() a!: string;
    }
    class Typed {
      @Type(() => Nested) @IsOptional() child?: Nested;
      @IsString() plain!: string;
    }
    expect(plainCopy(Typed, { plain: 'x' })).toBeUndefined();

    class Transformed {
      @Transform(({ value }: { value: unknown }) => String(value).trim()) @IsString() name!: string;
    }
    expect(plainCopy(Transformed, { name: ' x ' })).toBeUndefined();

    class WithAccessor {
      private stored = '';
      @IsString()
      get label(): string {
        return this.stored;
      }
      set label(value: string) {
        this.stored = value;
      }
    }
    expect(plainCopy(WithAccessor, { label: 'y' })).toBeUndefined();
  });

  test('declines nested values, arrays, undefined and keys without rules', () => {
    const id = randomUUID();
    for (const input of [{ project_id: { id } }, { project_id: [id] }, { project_id: undefined }, { project_id: id, extra: 'x' }]) {
      expect(plainCopy(ProjectIdDto, input)).toBeUndefined();
    }
  });
});
