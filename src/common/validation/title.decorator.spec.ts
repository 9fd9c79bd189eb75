import { Title } from './title.decorator';
import { validateInput } from './validate-input';

class Note {
  @Title('title', 10)
  title!: string;
}

class Item {
  @Title('title', 10, { clean: (text) => text.trim().replace(/\s+/g, ' '), classValidatorLengthMessage: true })
  title!: string;
}

describe('Title', () => {
  test('accepts one line of text and stores it trimmed', async () => {
    expect(await validateInput(Note, { title: '  Ship it  ' })).toEqual({ title: 'Ship it' });
    expect(await validateInput(Note, { title: 'Ünïcode 🚀' })).toEqual({ title: 'Ünïcode 🚀' });
  });

  test('refuses, in this order: no string, empty (after trimming), too long, control characters', async () => {
    await expect(validateInput(Note, { title: 42 })).rejects.toMatchObject({ message: 'title must be a string' });
    await expect(validateInput(Note, {})).rejects.toMatchObject({ message: 'title is required' });
    await expect(validateInput(Note, { title: '   ' })).rejects.toMatchObject({ message: 'title must not be empty' });
    await expect(validateInput(Note, { title: 'x'.repeat(11) })).rejects.toMatchObject({ message: 'title must be at most 10 characters' });
    await expect(validateInput(Note, { title: 'x\ty' })).rejects.toMatchObject({ message: 'title must not contain control characters' });
    await expect(validateInput(Note, { title: `${'x'.repeat(11)}\n` })).rejects.toMatchObject({ message: 'title must be at most 10 characters' });
  });

  test('the length is counted after trimming', async () => {
    expect(await validateInput(Note, { title: `   ${'x'.repeat(10)}   ` })).toEqual({ title: 'x'.repeat(10) });
  });

  test('clean replaces the trimming, and classValidatorLengthMessage keeps class-validator’s words for a text too long', async () => {
    expect(await validateInput(Item, { title: ' a   b ' })).toEqual({ title: 'a b' });
    await expect(validateInput(Item, { title: 'x'.repeat(11) })).rejects.toMatchObject({
      message: 'title must be shorter than or equal to 10 characters',
    });
  });
});
