/**
 * Whole token keys, as custom dataProvider methods (spread into customMethods): the list only has
 * masked keys; these ask for the real ones (answered without `sk-`, which the console adds).
 */
import type { RevealedKey, RevealedKeys, TokenPage, TokenView } from '../../server/tokens/schemas';
import { TOKEN_ENABLED } from '../../server/shared';
import { api } from './client';

export const tokenMethods = {
  /** The key of one of the person's tokens. The server allows 10 a minute. */
  async revealTokenKey(id: number): Promise<string> {
    return (await api.post<RevealedKey>(`/api/token/${id}/key`)).key;
  },
  /** The keys of several tokens (up to 100 a call), in the given order. */
  async revealTokenKeys(ids: readonly number[]): Promise<string[]> {
    const keys: string[] = [];
    for (let i = 0; i < ids.length; i += 100) {
      const batch = await api.post<RevealedKeys>('/api/token/keys', { ids: ids.slice(i, i + 100) });
      keys.push(...batch.map((entry) => entry.key));
    }
    return keys;
  },
  /** The first enabled token among the person's first 100 (what chat links use), or null. */
  async firstEnabledToken(): Promise<TokenView | null> {
    const page = await api.get<TokenPage>('/api/token/?p=1&size=100');
    return page.items.find((token) => token.status === TOKEN_ENABLED) ?? null;
  },
};
