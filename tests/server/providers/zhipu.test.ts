/**
 * Zhipu (type 16): the JWT made from an `id.secret` key (HS256, header sign_type SIGN, payload in
 * milliseconds), and the v4 target it is sent to. No network.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { splitZhipuKey, zhipuToken, ZHIPU_TOKEN_TTL_MS } from '../../../server/relay/providers/zhipu/jwt.js';
import { zhipu } from '../../../server/relay/providers/zhipu/index.js';

const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
const channel = { key: 'abc123.s3cr3t', base_url: null, other: null, openai_organization: null };

describe('Zhipu JWT', () => {
  it('splits `id.secret` keys', () => {
    expect(splitZhipuKey('abc123.s3cr3t')).toEqual({ id: 'abc123', secret: 's3cr3t' });
    expect(splitZhipuKey('no-dot')).toBeNull();
    expect(splitZhipuKey('a.b.c')).toBeNull();
  });

  it('signs {api_key, exp, timestamp} with the secret under an HS256 / SIGN header', () => {
    const token = zhipuToken({ id: 'abc123', secret: 's3cr3t' }, 1682503820130);
    const [header, payload, signature] = token.split('.');
    expect(decode(header!)).toEqual({ alg: 'HS256', sign_type: 'SIGN' });
    expect(decode(payload!)).toEqual({ api_key: 'abc123', exp: 1682503820130 + ZHIPU_TOKEN_TTL_MS, timestamp: 1682503820130 });
    expect(signature).toBe(createHmac('sha256', 's3cr3t').update(`${header}.${payload}`).digest('base64url'));
  });
});

describe('Zhipu provider', () => {
  it('calls the v4 API', () => {
    expect(zhipu.target(channel, 'chat.completions', 'glm-4').url).toBe('https://open.bigmodel.cn/api/paas/v4/chat/completions');
    expect(zhipu.target({ ...channel, base_url: 'http://127.0.0.1:1/' }, 'embeddings', 'embedding-2').url).toBe(
      'http://127.0.0.1:1/api/paas/v4/embeddings',
    );
    expect(zhipu.supports('chat.completions') && zhipu.supports('embeddings')).toBe(true);
    expect(zhipu.supports('images.generations')).toBe(false);
  });

  it('authorizes with a fresh JWT, or the key itself when it is not `id.secret`', async () => {
    const call = {
      target: { url: 'u', headers: { 'x-other': '1' } },
      body: '{}',
      endpoint: 'chat.completions' as const,
      model: 'glm-4',
      stream: false,
    };
    const signed = await zhipu.prepare!({ ...call, channel });
    const jwt = signed.target.headers.authorization!.replace(/^Bearer /, '');
    expect(decode(jwt.split('.')[1]!).api_key).toBe('abc123');
    expect(signed.target.headers['x-other']).toBe('1');
    expect(signed.body).toBe('{}');
    const plain = await zhipu.prepare!({ ...call, channel: { ...channel, key: 'plain-key' } });
    expect(plain.target.headers.authorization).toBe('Bearer plain-key');
  });
});
