/** Reading whole keys: the list only has masked ones, POST /api/token/{id}/key answers the real one. */
import { api } from '../../api/client';
import { KEY_PREFIX, TOKEN_ENABLED, type RevealedKey, type TokenPage, type TokenRecord } from './types';
import type { RevealedKeys } from '../../../server/tokens/schemas';

/**
 * A key as people copy and paste it: the server answers keys as stored, without `sk-`; every
 * place the console shows, copies or links a whole key goes through here.
 */
export function withPrefix(key: string): string {
  return key.startsWith(KEY_PREFIX) ? key : KEY_PREFIX + key;
}

/** The full key (`sk-…`) of one of the person's tokens. The server allows 10 a minute. */
export async function revealKey(id: number): Promise<string> {
  const { key } = await api.post<RevealedKey>(`/api/token/${id}/key`);
  return withPrefix(key);
}

/** The full keys (`sk-…`) of several tokens (up to 100 a call), in the given order. */
export async function revealKeys(ids: readonly number[]): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < ids.length; i += 100) {
    const batch = await api.post<RevealedKeys>('/api/token/keys', { ids: ids.slice(i, i + 100) });
    keys.push(...batch.map((entry) => withPrefix(entry.key)));
  }
  return keys;
}

/** The first enabled token among the person's first 100 (what chat links use), or null. */
export async function firstEnabledToken(): Promise<TokenRecord | null> {
  const page = await api.get<TokenPage>('/api/token/?p=1&size=100');
  return page.items.find((token) => token.status === TOKEN_ENABLED) ?? null;
}
