import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Length of a generated key, without the `sk-` prefix. */
export const KEY_LENGTH = 48;
/** The prefix clients put in front of the stored key (answers never carry it). */
export const KEY_PREFIX = 'sk-';
// Bytes at or above this would favour the first characters of the alphabet: they are drawn again.
const UNBIASED_LIMIT = 256 - (256 % ALPHABET.length);

/**
 * A fresh key of 48 characters from [A-Za-z0-9] (about 285 bits), stored as is in tokens.key.
 * At that size a collision is not a practical concern, so creation does not retry.
 */
export function generateKey(): string {
  let key = '';
  while (key.length < KEY_LENGTH) {
    for (const byte of randomBytes(KEY_LENGTH)) {
      if (byte < UNBIASED_LIMIT && key.length < KEY_LENGTH) key += ALPHABET[byte % ALPHABET.length];
    }
  }
  return key;
}

/** The stored form of a key a client or a search box gives, with or without `sk-`. */
export function storedKey(input: string): string {
  const key = input.trim();
  return key.startsWith(KEY_PREFIX) ? key.slice(KEY_PREFIX.length) : key;
}

/**
 * What lists and detail answers show: the first 4 and last 4 characters of the stored key around
 * ten asterisks, without `sk-` (the console prefixes it for display). Keys too short to hide
 * anything behind 8 visible characters are masked entirely.
 */
export function maskKey(key: string): string {
  if (key.length <= 8) return '*'.repeat(10);
  return `${key.slice(0, 4)}**********${key.slice(-4)}`;
}
