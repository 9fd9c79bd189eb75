import 'reflect-metadata';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { validateInput } from './validate-input';

class Tag {
  @IsString()
  label!: string;
}

class Note {
  @IsString()
  title!: string;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  lines?: string[];

  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => Tag)
  tags?: Tag[];
}

const unicode = (field: string) => `${field} must be valid Unicode text (it contains a lone surrogate)`;

describe('validateInput: lone surrogates', () => {
  test('a lone high or low surrogate anywhere in a string is refused, naming the field', async () => {
    for (const title of ['\ud800', 'a\udc00', '\udbffz', '\udfff\ud800']) {
      await expect(validateInput(Note, { title })).rejects.toMatchObject({ message: unicode('title') });
    }
  });

  test('the field is named at any depth, array positions included', async () => {
    await expect(validateInput(Note, { title: 'ok', lines: ['ok', '\ud800'] })).rejects.toMatchObject({ message: unicode('lines[1]') });
    await expect(validateInput(Note, { title: 'ok', tags: [{ label: 'ok' }, { label: '\udc00' }] })).rejects.toMatchObject({ message: unicode('tags[1].label') });
  });

  test('surrogate pairs (emoji, astral letters) are ordinary text', async () => {
    expect(await validateInput(Note, { title: '😀 𝔘𝔫𝔦', lines: ['\ud83d\ude00'] })).toMatchObject({ title: '😀 𝔘𝔫𝔦', lines: ['😀'] });
  });

  test('a built-in property name is still refused as an unknown field', async () => {
    await expect(validateInput(Note, JSON.parse('{"title": "ok", "tags": [{"label": "x", "constructor": 1}]}'))).rejects.toMatchObject({
      message: 'unknown field tags[0].constructor',
    });
  });
});

class Limits {
  @IsString()
  @MaxLength(5)
  @Matches(/^[a-z]*$/, { message: 'name must be lower case letters' })
  name!: string;

  @IsOptional()
  @Max(3600)
  @Min(0)
  @IsNumber({}, { message: 'wait must be a number' })
  wait?: number;

  @IsOptional()
  @Min(1)
  @IsInt({ message: 'count must be an integer' })
  count?: number;

  @IsOptional()
  @ArrayMaxSize(2)
  @IsString({ each: true })
  @IsArray({ message: 'tags must be an array' })
  tags?: string[];
}

describe('validateInput: what was wrong', () => {
  test('a wrong type is answered with the type rule, whatever the order the rules are declared in', async () => {
    await expect(validateInput(Limits, { name: 5 })).rejects.toMatchObject({ message: 'name must be a string' });
    await expect(validateInput(Limits, { name: 'ok', wait: 'abc' })).rejects.toMatchObject({ message: 'wait must be a number' });
    await expect(validateInput(Limits, { name: 'ok', wait: [] })).rejects.toMatchObject({ message: 'wait must be a number' });
    await expect(validateInput(Limits, { name: 'ok', count: 'many' })).rejects.toMatchObject({ message: 'count must be an integer' });
    await expect(validateInput(Limits, { name: 'ok', tags: 5 })).rejects.toMatchObject({ message: 'tags must be an array' });
    await expect(validateInput(Limits, { name: 'ok', tags: [5] })).rejects.toMatchObject({ message: 'each value in tags must be a string' });
  });

  test('a value of the right type still gets its first broken rule', async () => {
    await expect(validateInput(Limits, { name: 'abcdefg' })).rejects.toMatchObject({ message: 'name must be shorter than or equal to 5 characters' });
    await expect(validateInput(Limits, { name: 'AB' })).rejects.toMatchObject({ message: 'name must be lower case letters' });
    await expect(validateInput(Limits, { name: 'ok', wait: 4000 })).rejects.toMatchObject({ message: 'wait must not be greater than 3600' });
  });

  test('a required field left out is required; every bad field is named', async () => {
    await expect(validateInput(Limits, {})).rejects.toMatchObject({ message: 'name is required' });
    await expect(validateInput(Limits, { wait: 'x', count: 0, tags: 'y' })).rejects.toMatchObject({
      message: 'name is required; wait must be a number; count must not be less than 1; tags must be an array',
    });
    await expect(validateInput(Note, { title: 'ok', tags: [{}] })).rejects.toMatchObject({ message: 'tags.0.label is required' });
  });

  test('numeric text is read as the number in every numeric field, and nothing else is', async () => {
    expect(await validateInput(Limits, { name: 'ok', wait: '2.5', count: '7' })).toEqual({ name: 'ok', wait: 2.5, count: 7 });
    for (const count of ['1.5', ' 7', '7 ', '1e3', '0x10', '+7', '-7', '1234567890', '']) {
      await expect(validateInput(Limits, { name: 'ok', count })).rejects.toMatchObject({ message: 'count must be an integer' });
    }
    await expect(validateInput(Limits, { name: 'ok', wait: '1.2345' })).rejects.toMatchObject({ message: 'wait must be a number' });
  });
});
