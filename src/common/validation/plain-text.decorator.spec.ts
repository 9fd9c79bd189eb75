import { PlainText } from './plain-text.decorator';
import { validateInput } from './validate-input';

class Question {
  @PlainText('question', 10)
  question!: string;
}

describe('PlainText', () => {
  test('keeps the text exactly as written, white space and control characters included', async () => {
    for (const question of ['Why?', '  padded  ', 'tab\there', 'bell\u0007', ' ']) {
      expect(await validateInput(Question, { question })).toEqual({ question });
    }
  });

  test('refuses, in this order: no string, too long, empty', async () => {
    await expect(validateInput(Question, {})).rejects.toMatchObject({ message: 'question is required' });
    await expect(validateInput(Question, { question: 5 })).rejects.toMatchObject({ message: 'question must be a string' });
    await expect(validateInput(Question, { question: 'x'.repeat(11) })).rejects.toMatchObject({
      message: 'question must be shorter than or equal to 10 characters',
    });
    await expect(validateInput(Question, { question: '' })).rejects.toMatchObject({ message: 'question must not be empty' });
  });
});
