import { parseIncomingMessage } from './a2a-message.util';

const ok = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'Fix the login page\nIt 500s on empty passwords' }], metadata: { sender: 'review-bot' } };

describe('an incoming A2A message', () => {
  test('a user message with a text part gives the title (its first line) and the sender', () => {
    const parsed = parseIncomingMessage(ok);
    expect(parsed.title).toBe('Fix the login page');
    expect(parsed.sender).toBe('review-bot');
    expect(parsed.message.messageId).toBe('m-1');
  });

  test.each([
    [undefined, 'message is required'],
    [{ ...ok, messageId: '' }, 'message.messageId'],
    [{ ...ok, role: 'ROLE_AGENT' }, 'message.role must be ROLE_USER'],
    [{ ...ok, taskId: 'x' }, 'message.taskId is not accepted'],
    [{ ...ok, parts: [] }, 'message.parts must be a non-empty array'],
    [{ ...ok, parts: [{ data: { a: 1 } }] }, 'non-empty text part'],
    [{ ...ok, parts: [{ text: 'a', url: 'b' }] }, 'message.parts[0] must have exactly one'],
    [{ ...ok, parts: [{ text: 5 }] }, 'message.parts[0].text must be a string'],
    [{ ...ok, metadata: [] }, 'message.metadata must be an object'],
  ])('%j is refused naming %s', (raw, why) => {
    expect(() => parseIncomingMessage(raw)).toThrow(why);
  });
});
