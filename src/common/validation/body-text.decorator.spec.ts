import { BodyText } from './body-text.decorator';
import { validateInput } from './validate-input';

class Note {
  @BodyText('body', 20)
  body!: string;
}

class Task {
  @BodyText('description', 20, { notBlank: true })
  description!: string;
}

describe('BodyText', () => {
  test('accepts markdown over several lines, tabs and carriage returns included, kept as written', async () => {
    const body = '# Title\r\n\t- item  \n';
    expect(await validateInput(Note, { body })).toEqual({ body });
  });

  test('accepts an empty text (it clears the field) unless notBlank', async () => {
    expect(await validateInput(Note, { body: '' })).toEqual({ body: '' });
    await expect(validateInput(Task, { description: '' })).rejects.toMatchObject({ message: 'description must not be blank' });
    await expect(validateInput(Task, { description: ' \n\t' })).rejects.toMatchObject({ message: 'description must not be blank' });
  });

  test('refuses, in this order: no string, too long, control characters other than tab and line breaks', async () => {
    await expect(validateInput(Note, { body: ['a'] })).rejects.toMatchObject({ message: 'body must be a string' });
    await expect(validateInput(Note, { body: 'x'.repeat(21) })).rejects.toMatchObject({ message: 'body must be at most 20 characters' });
    await expect(validateInput(Note, { body: 'bell\u0007' })).rejects.toMatchObject({ message: 'body must not contain control characters' });
    await expect(validateInput(Note, { body: 'del\u007f' })).rejects.toMatchObject({ message: 'body must not contain control characters' });
  });
});
