import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setupServer } from 'msw/node';
import { api as client } from '../../src/api/client';
import { EXACT, localizeServerMessage } from '../../src/i18n/serverMessages';
import { LOCALE_KEY } from '../../src/i18n';
import { refuse } from './harness';

const server = setupServer(refuse('post', '/api/user/topup', '该兑换码已被使用'));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => localStorage.removeItem(LOCALE_KEY));
afterAll(() => server.close());

function serverSources(dir: string): string {
  let text = '';
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) text += serverSources(path);
    else if (entry.name.endsWith('.ts')) text += readFileSync(path, 'utf8');
  }
  return text;
}

describe('server messages in English', () => {
  it('translates exact messages and messages with values, for English readers only', () => {
    expect(localizeServerMessage('无效的兑换码', 'en')).toBe('Invalid redemption code');
    expect(localizeServerMessage('无效的兑换码', 'zh')).toBe('无效的兑换码');
    expect(localizeServerMessage('当前分组 vip 下对于模型 gpt-4o 无可用渠道', 'en')).toBe(
      'No channel available for model gpt-4o in group vip',
    );
    expect(localizeServerMessage('请求过于频繁：每 1 分钟最多 3 次请求，请稍后再试', 'en')).toBe(
      'Too many requests: at most 3 requests every 1 minute(s), try again later',
    );
    expect(localizeServerMessage('管理员未开启通过 GitHub 登录以及注册', 'en')).toBe(
      'The administrator has not enabled login and registration with GitHub',
    );
    expect(localizeServerMessage('该 GitHub 账户已被其他用户绑定', 'en')).toBe(
      'This GitHub account is already bound to another user',
    );
    expect(localizeServerMessage('something the table does not know', 'en')).toBe('something the table does not know');
  });

  it('lists only messages the server really sends', () => {
    const sources = serverSources(join(process.cwd(), 'server'));
    const unknown = Object.keys(EXACT).filter((message) => !sources.includes(message));
    expect(unknown).toEqual([]);
  });
});

describe('refusals the console shows', () => {
  it('carry the English text when the reader chose English, the server’s words otherwise', async () => {
    await expect(client.post('/api/user/topup', { key: 'x' })).rejects.toThrow('该兑换码已被使用');
    localStorage.setItem(LOCALE_KEY, 'en');
    await expect(client.post('/api/user/topup', { key: 'x' })).rejects.toThrow('This redemption code has already been used');
  });
});
