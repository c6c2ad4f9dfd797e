import { describe, expect, it } from 'vitest';
import englishMessages from 'ra-language-english';
import { zh } from '../../src/i18n/zh';
import { en } from '../../src/i18n/en';

type Tree = { [key: string]: unknown };

function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    value && typeof value === 'object' ? keys(value as Tree, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

describe('translations', () => {
  it('zh and en have exactly the same keys, at every depth', () => {
    const zhKeys = keys(zh).sort();
    const enKeys = keys(en).sort();
    expect(zhKeys.filter((k) => !enKeys.includes(k))).toEqual([]);
    expect(enKeys.filter((k) => !zhKeys.includes(k))).toEqual([]);
  });

  it('the Chinese react-admin messages cover every key of the English package', () => {
    const zhKeys = new Set(keys(zh));
    expect(keys(englishMessages as Tree).filter((k) => !zhKeys.has(k))).toEqual([]);
  });

  it('every message is a non-empty string', () => {
    for (const messages of [zh, en]) {
      const flat = keys(messages);
      for (const key of flat) {
        const value = key.split('.').reduce<unknown>((node, part) => (node as Tree)[part], messages);
        expect(typeof value === 'string' && (value.trim() !== '' || key === 'ra.boolean.null'), key).toBe(true);
      }
    }
  });

  it('translates the generic HTTP errors of the API client', () => {
    expect(zh.app.error.too_many_requests).toBeTruthy();
    expect(en.app.error.server_error).toMatch(/server internal error/i);
    expect(en.app.error.demo_site).toMatch(/demo/i);
  });
});
