/** Whole keys as people copy them (the dataProvider's revealTokenKey(s) read them). */
import { KEY_PREFIX } from './types';

/**
 * A key as people copy and paste it: the server answers keys as stored, without `sk-`; every
 * place the console shows, copies or links a whole key goes through here.
 */
export function withPrefix(key: string): string {
  return key.startsWith(KEY_PREFIX) ? key : KEY_PREFIX + key;
}
