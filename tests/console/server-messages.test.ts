import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { REFUSALS } from '../../server/http/refusals';
import { refusalMessage } from '../../server/http/errors';
import { api as client } from '../../src/api/client';
import { localizeRefusal, serverErrorTemplate } from '../../src/i18n/serverErrors';
import { LOCALE_KEY, type Locale } from '../../src/i18n';
import { server_errors as zhTable } from '../../src/i18n/zh/server_errors';
import { server_errors as enTable } from '../../src/i18n/en/server_errors';

const server = setupServer(
  http.post('/api/user/topup', () => HttpResponse.json({ success: false, message: '该兑换码已被使用', code: 'redemption.used' })),
  http.post('/api/user/register', () =>
    HttpResponse.json({
      success: false,
      message: refusalMessage('account.password_too_short', { min: 8 }),
      code: 'account.password_too_short',
      params: { min: 8 },
    }),
  ),
  http.post('/api/user/login', () => HttpResponse.json({ success: false, message: '某个旧服务器的话' })),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => localStorage.removeItem(LOCALE_KEY));
afterAll(() => server.close());

const placeholders = (text: string) => [...new Set([...text.matchAll(/%\{(\w+)\}/g)].map((m) => m[1]))].sort();

type Tree = { [key: string]: unknown };
const codesOf = (tree: Tree, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'object' && value ? codesOf(value as Tree, `${prefix}${key}.`) : [`${prefix}${key}`],
  );

describe('every refusal of the server, in both languages', () => {
  const codes = Object.keys(REFUSALS) as Array<keyof typeof REFUSALS>;

  it.each(['zh', 'en'] as Locale[])('%s has a text for every code, with the server message’s placeholders', (locale) => {
    const problems: string[] = [];
    for (const code of codes) {
      const text = serverErrorTemplate(code, locale);
      if (text === undefined) problems.push(`${code}: missing`);
      else if (placeholders(text).join() !== placeholders(REFUSALS[code]).join()) problems.push(`${code}: placeholders differ`);
    }
    expect(problems).toEqual([]);
  });

  it('translates no code the server does not send', () => {
    for (const table of [zhTable, enTable]) expect(codesOf(table).filter((code) => !(code in REFUSALS))).toEqual([]);
  });
});

describe('localizeRefusal', () => {
  it('fills the values, spaced off like the server does between Chinese and Latin text', () => {
    const refusal = { code: 'oauth.provider_disabled', params: { provider: 'GitHub' }, message: '…' };
    expect(localizeRefusal(refusal, 'en')).toBe('The administrator has not enabled login and registration with GitHub');
    expect(localizeRefusal(refusal, 'zh')).toBe(refusalMessage('oauth.provider_disabled', { provider: 'GitHub' }));
    const limit = { code: 'rate_limit_exceeded', params: { minutes: 1, max: 3 } };
    expect(localizeRefusal(limit, 'en')).toBe('Too many requests: at most 3 requests every 1 minute(s), try again later');
  });

  it('shows the server’s words for an unknown code, a missing value or no code', () => {
    expect(localizeRefusal({ code: 'future.reason', message: '新的拒绝' }, 'en')).toBe('新的拒绝');
    expect(localizeRefusal({ code: 'model_not_found', message: '当前分组 vip 下对于模型 x 无可用渠道' }, 'en')).toBe(
      '当前分组 vip 下对于模型 x 无可用渠道',
    );
    expect(localizeRefusal({ message: 'plain' }, 'en')).toBe('plain');
    expect(localizeRefusal({ code: 'toString', message: 'm' }, 'en')).toBe('m');
    expect(localizeRefusal({}, 'en', 'pages.oauth.failed')).toBe('pages.oauth.failed');
  });
});

describe('refusals the console shows', () => {
  it('are in the reader’s language, by code', async () => {
    await expect(client.post('/api/user/topup', { key: 'x' })).rejects.toThrow('该兑换码已被使用');
    await expect(client.post('/api/user/register', {})).rejects.toThrow('密码长度至少为8个字符');
    localStorage.setItem(LOCALE_KEY, 'en');
    await expect(client.post('/api/user/topup', { key: 'x' })).rejects.toThrow('This redemption code has already been used');
    await expect(client.post('/api/user/register', {})).rejects.toThrow('The password must be at least 8 characters');
    await expect(client.post('/api/user/login', {})).rejects.toThrow('某个旧服务器的话');
  });
});
