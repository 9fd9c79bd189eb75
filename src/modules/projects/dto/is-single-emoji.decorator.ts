import { registerDecorator } from 'class-validator';
import { isSingleEmoji } from '../emoji.util';

export function IsSingleEmoji() {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isSingleEmoji',
      target: object.constructor,
      propertyName,
      options: { message: `${propertyName} must be exactly one emoji, or null to clear it` },
      validator: { validate: (value: unknown) => typeof value === 'string' && isSingleEmoji(value) },
    });
}
