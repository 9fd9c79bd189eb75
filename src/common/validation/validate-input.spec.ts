import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsArray, IsOptional, IsString, ValidateNested } from 'class-validator';
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
