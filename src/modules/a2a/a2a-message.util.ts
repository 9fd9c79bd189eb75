import type { Message } from '@a2a-js/sdk';
import { a2aSdk } from './a2a-sdk';
import { A2A_PARTS_MAX, A2A_TEXT_MAX, A2A_TITLE_MAX } from './a2a.constants';

export interface IncomingMessage {
  /** The message in the protocol's own types (SDK), with its role normalised to ROLE_USER. */
  message: Message;
  title: string;
  /** The sending agent's name, from the message's `metadata.sender` when it gives one. */
  sender: string | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/**
 * Checks the `message` of an A2A SendMessage request as Baton stores it: a
 * user message with an id and at least one text part (text, data or url parts
 * ride along), within size limits. Each refusal names the field. A message
 * continuing an existing task is refused: a task here is handed over once and
 * answered through its state.
 */
export function parseIncomingMessage(raw: unknown): IncomingMessage {
  if (!isObject(raw)) throw new Error('message is required: an object with messageId, role and parts');
  const { messageId, role, parts, taskId, metadata } = raw;
  if (typeof messageId !== 'string' || !messageId.trim() || messageId.length > 200 || CONTROL.test(messageId)) {
    throw new Error('message.messageId must be a non-empty string of at most 200 characters');
  }
  if (role !== undefined && role !== 'ROLE_USER' && role !== 'user') throw new Error('message.role must be ROLE_USER: an agent sends a task as the user of this agent');
  if (taskId !== undefined && taskId !== '') throw new Error('message.taskId is not accepted: send a new message without taskId to hand over a new task');
  if (!Array.isArray(parts) || parts.length === 0) throw new Error('message.parts must be a non-empty array');
  if (parts.length > A2A_PARTS_MAX) throw new Error(`message.parts must hold at most ${A2A_PARTS_MAX} parts`);
  const texts: string[] = [];
  parts.forEach((part, i) => {
    if (!isObject(part)) throw new Error(`message.parts[${i}] must be an object`);
    const kinds = ['text', 'data', 'url', 'raw'].filter((k) => part[k] !== undefined);
    if (kinds.length !== 1) throw new Error(`message.parts[${i}] must have exactly one of text, data, url or raw`);
    if (kinds[0] === 'text') {
      if (typeof part.text !== 'string') throw new Error(`message.parts[${i}].text must be a string`);
      texts.push(part.text);
    }
  });
  const text = texts.join('\n').trim();
  if (!text) throw new Error('message.parts must include a non-empty text part saying what the task is');
  if (text.length > A2A_TEXT_MAX) throw new Error(`message text must be at most ${A2A_TEXT_MAX} characters`);
  if (metadata !== undefined && !isObject(metadata)) throw new Error('message.metadata must be an object');
  const sender = isObject(metadata) && typeof metadata.sender === 'string' ? metadata.sender.replace(/\s+/g, ' ').trim().slice(0, 200) || null : null;
  const firstLine = text.split('\n').find((l) => l.trim()) ?? text;
  const { Message: Messages, Role } = a2aSdk();
  const message = Messages.fromJSON({ ...raw, role: 'ROLE_USER' });
  message.role = Role.ROLE_USER;
  return { message, title: firstLine.replace(/\s+/g, ' ').trim().slice(0, A2A_TITLE_MAX), sender };
}
