/**
 * Vertex AI pieces, no network: service-account keys, regions, URLs, Claude model names, the
 * signed JWT assertion, the token cache, bodies, answers in either protocol and errors.
 */
import { generateKeyPairSync, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseServiceAccount, type ServiceAccount } from '../../../server/relay/providers/vertex/service-account.js';
import { createJwtAssertion, createTokenSource, type TokenGrant } from '../../../server/relay/providers/vertex/vertex-token.js';
import { claudeUrl, geminiUrl, vertexClaudeModel, vertexRegion } from '../../../server/relay/providers/vertex/vertex-urls.js';
import {
  vertexAnswer,
  vertexClaudeBody,
  vertexErrorMessage,
  withoutModel,
} from '../../../server/relay/providers/vertex/vertex-request.js';
import { vertex, vertexClaude, vertexGemini } from '../../../server/relay/providers/vertex/index.js';

const fixtures = new URL('../../fixtures/providers/vertex/', import.meta.url);
const json = (name: string): unknown => JSON.parse(readFileSync(new URL(name, fixtures), 'utf8'));

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

const serviceAccount = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: 'service_account',
    project_id: 'demo-project',
    private_key_id: 'key-1',
    private_key: privatePem,
    client_email: 'relay@demo-project.iam.gserviceaccount.com',
    token_uri: 'https://oauth2.googleapis.com/token',
    ...over,
  });

const account = (): ServiceAccount => {
  const parsed = parseServiceAccount(serviceAccount());
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.account;
};

const channel = (over: { key?: string; base_url?: string | null; other?: string | null } = {}) => ({
  key: serviceAccount(),
  base_url: null,
  other: null,
  openai_organization: null,
  ...over,
});

describe('service-account keys', () => {
  it('reads the fields the token exchange needs, defaulting the token URI', () => {
    const parsed = parseServiceAccount(serviceAccount({ token_uri: undefined }));
    expect(parsed).toMatchObject({
      ok: true,
      account: {
        clientEmail: 'relay@demo-project.iam.gserviceaccount.com',
        projectId: 'demo-project',
        privateKeyId: 'key-1',
        tokenUri: 'https://oauth2.googleapis.com/token',
      },
    });
  });

  it('names what is wrong without echoing the key', () => {
    expect(parseServiceAccount('not json')).toEqual({ ok: false, message: 'Vertex AI 密钥应为服务账号 JSON' });
    expect(parseServiceAccount('[1]')).toEqual({ ok: false, message: 'Vertex AI 密钥应为服务账号 JSON' });
    const missing = parseServiceAccount(serviceAccount({ client_email: '', project_id: undefined }));
    expect(missing).toEqual({ ok: false, message: 'Vertex AI 服务账号 JSON 缺少 client_email、project_id' });
  });
});

describe('regions, URLs and model names', () => {
  it('takes the region from other: a plain region, or JSON per model with a default', () => {
    expect(vertexRegion(null, 'gemini-2.5-flash')).toBe('us-central1');
    expect(vertexRegion(' europe-west4 ', 'gemini-2.5-flash')).toBe('europe-west4');
    const perModel = JSON.stringify({
      default: 'us-central1',
      'claude-sonnet-4-20250514': 'us-east5',
      'claude-3-5-haiku@20241022': 'europe-west1',
    });
    expect(vertexRegion(perModel, 'claude-sonnet-4-20250514')).toBe('us-east5');
    expect(vertexRegion(perModel, 'claude-3-5-haiku-20241022')).toBe('europe-west1');
    expect(vertexRegion(perModel, 'gemini-2.5-pro')).toBe('us-central1');
    expect(vertexRegion('{"claude-x": "us-east5"}', 'gemini-2.5-pro')).toBe('us-central1');
  });

  it('writes Claude names with Vertex’s @ versions', () => {
    expect(vertexClaudeModel('claude-3-5-sonnet-20240620')).toBe('claude-3-5-sonnet@20240620');
    expect(vertexClaudeModel('claude-3-5-sonnet-20241022')).toBe('claude-3-5-sonnet-v2@20241022');
    expect(vertexClaudeModel('claude-sonnet-4-5-20250929')).toBe('claude-sonnet-4-5@20250929');
    expect(vertexClaudeModel('claude-opus-4-1@20250805')).toBe('claude-opus-4-1@20250805');
    expect(vertexClaudeModel('claude-sonnet-4-5')).toBe('claude-sonnet-4-5');
  });

  it('builds regional, global and base-URL addresses for both publishers', () => {
    expect(geminiUrl(channel(), 'gemini-2.5-flash', false)).toBe(
      'https://us-central1-aiplatform.googleapis.com/v1/projects/demo-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent',
    );
    expect(geminiUrl(channel({ other: 'global' }), 'gemini-2.5-pro', true)).toBe(
      'https://aiplatform.googleapis.com/v1/projects/demo-project/locations/global/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
    );
    expect(claudeUrl(channel({ other: 'us-east5' }), 'claude-3-7-sonnet-20250219', false)).toBe(
      'https://us-east5-aiplatform.googleapis.com/v1/projects/demo-project/locations/us-east5/publishers/anthropic/models/claude-3-7-sonnet@20250219:rawPredict',
    );
    expect(
      claudeUrl(channel({ base_url: 'http://127.0.0.1:9/', other: 'europe-west1' }), 'claude-3-5-sonnet-20241022', true),
    ).toBe(
      'http://127.0.0.1:9/v1/projects/demo-project/locations/europe-west1/publishers/anthropic/models/claude-3-5-sonnet-v2@20241022:streamRawPredict',
    );
  });

  it('hands out one definition per model: Gemini’s protocol or Claude’s', () => {
    expect(vertex.forModel!('gemini-2.5-flash')).toBe(vertexGemini);
    expect(vertex.forModel!('claude-3-7-sonnet-20250219')).toBe(vertexClaude);
    expect([vertexGemini.protocol, vertexClaude.protocol]).toEqual(['gemini', 'claude']);
  });
});

describe('access tokens', () => {
  it('signs an RS256 assertion for the cloud-platform scope, addressed to the token URI', () => {
    const jwt = createJwtAssertion(account(), 1_750_000_000);
    const [header, claims, signature] = jwt.split('.') as [string, string, string];
    const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    expect(decode(header)).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'key-1' });
    expect(decode(claims)).toEqual({
      iss: 'relay@demo-project.iam.gserviceaccount.com',
      scope: 'https://www.googleapis.com/auth/cloud-platform',
      aud: 'https://oauth2.googleapis.com/token',
      iat: 1_750_000_000,
      exp: 1_750_003_600,
    });
    expect(verify('RSA-SHA256', Buffer.from(`${header}.${claims}`), publicKey, Buffer.from(signature, 'base64url'))).toBe(true);
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
    expect(verify('RSA-SHA256', Buffer.from(`${header}.${claims}`), other, Buffer.from(signature, 'base64url'))).toBe(false);
  });

  it('refuses an unreadable private key clearly', () => {
    expect(() => createJwtAssertion({ ...account(), privateKey: 'garbage' }, 1)).toThrow(
      'Vertex AI 服务账号的 private_key 无法读取',
    );
  });

  /** A token source over a counting exchange and a clock the test moves. */
  function countingSource(lifetime = 3600) {
    let clock = 1_000_000;
    const calls: ServiceAccount[] = [];
    const source = createTokenSource(
      async (acc): Promise<TokenGrant> => {
        calls.push(acc);
        // Answers a little later, as a network would: concurrent callers overlap.
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { accessToken: `token-${calls.length}`, expiresInSeconds: lifetime };
      },
      () => clock,
    );
    return { source, calls, advance: (ms: number) => (clock += ms) };
  }

  it('shares one fetch among concurrent requests and caches the token until shortly before it expires', async () => {
    const { source, calls, advance } = countingSource();
    const tokens = await Promise.all([source.get(account()), source.get(account()), source.get(account())]);
    expect(tokens).toEqual(['token-1', 'token-1', 'token-1']);
    expect(await source.get(account())).toBe('token-1');
    expect(calls).toHaveLength(1);
    advance(54 * 60_000);
    expect(await source.get(account())).toBe('token-1');
    advance(2 * 60_000);
    expect(await source.get(account())).toBe('token-2');
    expect(calls).toHaveLength(2);
  });

  it('keeps accounts apart and never caches a failure', async () => {
    const { source, calls } = countingSource();
    const other: ServiceAccount = { ...account(), clientEmail: 'other@demo-project.iam.gserviceaccount.com' };
    await source.get(account());
    await source.get(other);
    expect(calls.map((c) => c.clientEmail)).toEqual([account().clientEmail, other.clientEmail]);

    let fail = true;
    let attempts = 0;
    const flaky = createTokenSource(async () => {
      attempts++;
      if (fail) throw new Error('Vertex AI 访问令牌获取失败（400）：invalid_grant: Invalid JWT Signature.');
      return { accessToken: 'ok', expiresInSeconds: 3600 };
    });
    await expect(flaky.get(account())).rejects.toThrow('invalid_grant');
    fail = false;
    expect(await flaky.get(account())).toBe('ok');
    expect(attempts).toBe(2);
  });

  it('renews short-lived tokens at half their life', async () => {
    const { source, calls, advance } = countingSource(120);
    await source.get(account());
    advance(59_000);
    await source.get(account());
    advance(2_000);
    await source.get(account());
    expect(calls).toHaveLength(2);
  });
});

describe('bodies, answers and errors', () => {
  it('sends Claude bodies without model, with Vertex’s anthropic_version, stream only when streaming', () => {
    const claude = { model: 'claude-3-7-sonnet-20250219', stream: true, max_tokens: 8, messages: [] };
    expect(JSON.parse(vertexClaudeBody(claude, true))).toEqual({
      anthropic_version: 'vertex-2023-10-16',
      stream: true,
      max_tokens: 8,
      messages: [],
    });
    expect(JSON.parse(vertexClaudeBody(claude, false))).not.toHaveProperty('stream');
  });

  it('drops a model field from a passed-through Gemini body, and only that', () => {
    expect(JSON.parse(String(withoutModel('{"model":"x","contents":[]}')))).toEqual({ contents: [] });
    const untouched = '{"contents":[{"parts":[{"text":"Hi"}]}]}';
    expect(withoutModel(untouched)).toBe(untouched);
  });

  it('reads a whole answer by its shape: Claude’s message or Gemini’s candidates', () => {
    const claude = vertexAnswer(json('claude-message.json'), 'claude-3-7-sonnet-20250219');
    expect(claude.completion).toMatchObject({
      choices: [{ message: { content: 'Hi there! What would you like to talk about?' } }],
    });
    expect(claude.usage).toMatchObject({ promptTokens: 13, completionTokens: 14 });
    const gemini = vertexAnswer(json('gemini-text.json'), 'gemini-2.5-flash');
    expect(gemini.completion).toMatchObject({ choices: [{ message: { content: 'Lisbon is the capital of Portugal.' } }] });
    expect(gemini.usage).toMatchObject({ promptTokens: 8, completionTokens: 7 });
  });

  it('reads Google’s and Claude’s error shapes', () => {
    expect(vertexErrorMessage(JSON.stringify(json('error-unauthenticated.json')), 401)).toMatch(
      /^Request had invalid authentication credentials/,
    );
    expect(vertexErrorMessage('{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', 529)).toBe(
      'Overloaded',
    );
    expect(vertexErrorMessage('upstream down', 503)).toBe('upstream down');
  });

  it('fails a call on a bad key or region before anything is sent', async () => {
    const call = (over: { key?: string; other?: string }) =>
      vertexGemini.prepare!({
        target: { url: 'http://x', headers: {} },
        body: '{}',
        channel: channel(over),
        endpoint: 'chat.completions',
        model: 'gemini-2.5-flash',
        stream: false,
      });
    await expect(call({ key: '{"client_email":"a@b"}' })).rejects.toThrow('Vertex AI 服务账号 JSON 缺少 private_key、project_id');
    await expect(call({ other: 'evil.example/#' })).rejects.toThrow('Vertex AI 区域格式不正确');
  });
});
