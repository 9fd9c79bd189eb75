import { randomInt } from 'node:crypto';

/** The letters of user codes: 20 consonants, so no word can be spelt and none looks like a digit (RFC 8628 §6.1). */
const ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const LENGTH = 8;

/** A new user code as stored: 8 letters, about 34 bits. */
export function newUserCode(): string {
  return Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
}

/** A code as a person may type it (any case, spaces or dashes) in the form it is stored. */
export function normalizeUserCode(typed: string): string {
  return typed.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/** A code as devices show it: `BCDF-GHJK`. */
export function displayUserCode(stored: string): string {
  return stored.length === LENGTH ? `${stored.slice(0, 4)}-${stored.slice(4)}` : stored;
}
