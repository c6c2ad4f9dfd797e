/**
 * AWS Claude (Bedrock, type 33) and Vertex AI (type 41) through the real gateway, with the official
 * OpenAI, Anthropic and Google Gen AI SDKs as clients and local stand-ins that check what the
 * clouds check: the SigV4 signature, the JWT assertion behind the bearer token.
 */
import { generateKeyPairSync } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayFixture, streamChat, type RelayFixture } from '../helpers/relay-fixture.js';
import { startBedrockStandIn, type BedrockStandIn } from '../helpers/upstreams/bedrock.js';
import { startVertexStandIn, type VertexStandIn } from '../helpers/upstreams/vertex.js';

const AWS_KEY_ID = 'AKIAIOSFODNN7EXAMPLE';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const PROJECT = 'relay-test-project';

function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

const MAIN = { email: 'relay@relay-test-project.iam.gserviceaccount.com', ...keyPair() };
const CACHED = { email: 'cache@relay-test-project.iam.gserviceaccount.com', ...keyPair() };
const FORGED = keyPair();

const PRICES: Record<string, [ratio: number, completion: number]> = {
  'claude-3-5-sonnet-20240620': [1.5, 5],
  'claude-sonnet-4-20250514': [1.5, 5],
  'claude-3-haiku-20240307': [0.125, 5],
  'claude-3-opus-20240229': [7.5, 5],
  'claude-3-sonnet-20240229': [1.5, 5],
  'claude-3-7-sonnet-20250219': [1.5, 5],
  'gemini-2.5-flash': [0.15, 4],
  'gemini-2.5-pro': [0.625, 8],
  'gemini-2.0-flash': [0.05, 4],
};

const quota = (model: string, prompt: number, completion: number) => {
  const [ratio, completionRatio] = PRICES[model]!;
  return Math.round((prompt + completion * completionRatio) * ratio);
};

describe('AWS Claude and Vertex AI channels', () => {
  let f: RelayFixture;
  let bedrock: BedrockStandIn;
  let vertex: VertexStandIn;
  let anthropic: Anthropic;
  let genai: GoogleGenAI;
  const ids: Record<string, number> = {};
  const privateUpstreams = process.env.ALLOW_PRIVATE_UPSTREAMS;

  const serviceAccount = (account: { email: string; privatePem: string }) =>
    JSON.stringify({
      type: 'service_account',
      project_id: PROJECT,
      private_key_id: 'k1',
      private_key: account.privatePem,
      client_email: account.email,
      token_uri: vertex.tokenUri,
    });

  beforeAll(async () => {
    // The token endpoint is a key's own URL, fetched through the SSRF-safe fetcher: here it is on loopback.
    process.env.ALLOW_PRIVATE_UPSTREAMS = 'true';
    f = await startRelayFixture('sqlite');
    bedrock = await startBedrockStandIn({
      region: 'us-east-1',
      credentials: { [AWS_KEY_ID]: AWS_SECRET },
      answer: (call) =>
        call.stream && call.modelId.includes('claude-3-haiku') ? { fixture: 'stream-exception.chunks.txt' } : undefined,
    });
    vertex = await startVertexStandIn({
      project: PROJECT,
      accounts: { [MAIN.email]: MAIN.publicPem, [CACHED.email]: CACHED.publicPem },
    });

    const options = f.tg.gateway.ctx.options;
    const ratios = JSON.parse(options.raw('ModelRatio'));
    const completion = JSON.parse(options.raw('CompletionRatio'));
    for (const [model, [ratio, completionRatio]] of Object.entries(PRICES)) {
      ratios[model] = ratio;
      completion[model] = completionRatio;
    }
    await f.root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify(ratios) });
    await f.root.put('/api/option/', { key: 'CompletionRatio', value: JSON.stringify(completion) });

    const aws = { type: 33, base_url: bedrock.url };
    ids.bedrock = await f.addChannel({
      ...aws,
      name: 'bedrock',
      key: `${AWS_KEY_ID}|${AWS_SECRET}|us-east-1`,
      models: 'claude-3-5-sonnet-20240620,claude-sonnet-4-20250514,claude-3-haiku-20240307',
    });
    ids.wrongSecret = await f.addChannel({
      ...aws,
      name: 'bedrock-wrong-secret',
      key: `${AWS_KEY_ID}|not-the-secret|us-east-1`,
      models: 'claude-3-opus-20240229',
    });
    await f.addChannel({ ...aws, name: 'bedrock-malformed', key: 'just-an-access-key', models: 'claude-3-sonnet-20240229' });

    const google = { type: 41, base_url: vertex.url };
    ids.vertex = await f.addChannel({
      ...google,
      name: 'vertex',
      key: serviceAccount(MAIN),
      other: JSON.stringify({ default: 'us-central1', 'claude-3-7-sonnet-20250219': 'us-east5' }),
      models: 'gemini-2.5-flash,claude-3-7-sonnet-20250219',
    });
    await f.addChannel({
      ...google,
      name: 'vertex-cache',
      key: serviceAccount(CACHED),
      other: 'europe-west4',
      models: 'gemini-2.5-pro',
    });
    ids.forged = await f.addChannel({
      ...google,
      name: 'vertex-forged',
      key: serviceAccount({ email: MAIN.email, privatePem: FORGED.privatePem }),
      models: 'gemini-2.0-flash',
    });

    anthropic = new Anthropic({ apiKey: f.key, baseURL: f.tg.url, maxRetries: 0 });
    genai = new GoogleGenAI({ apiKey: f.key, httpOptions: { baseUrl: f.tg.url } });
  });
  afterAll(async () => {
    await f?.close();
    await bedrock?.close();
    await vertex?.close();
    if (privateUpstreams === undefined) delete process.env.ALLOW_PRIVATE_UPSTREAMS;
    else process.env.ALLOW_PRIVATE_UPSTREAMS = privateUpstreams;
  });

  describe('Bedrock', () => {
    it('serves OpenAI chat through a signed InvokeModel call, converted both ways', async () => {
      const answer = await f.openai().chat.completions.create({
        model: 'claude-3-5-sonnet-20240620',
        messages: [
          { role: 'system', content: 'Answer in French.' },
          { role: 'user', content: 'Hello!' },
        ],
        max_tokens: 100,
      });
      expect(answer.choices[0]?.message.content).toBe("Bonjour ! Comment puis-je vous aider aujourd'hui ?");
      expect(answer.usage).toMatchObject({ prompt_tokens: 17, completion_tokens: 16 });

      const sent = bedrock.requests.at(-1)!;
      expect(sent.url).toBe('/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/invoke');
      expect(sent.signatureValid).toBe(true);
      expect(sent.headers.authorization).toMatch(
        new RegExp(
          `^AWS4-HMAC-SHA256 Credential=${AWS_KEY_ID}/\\d{8}/us-east-1/bedrock/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=`,
        ),
      );
      expect(JSON.stringify(sent.headers)).not.toContain(AWS_SECRET);
      expect(sent.body).toEqual({
        anthropic_version: 'bedrock-2023-05-31',
        system: 'Answer in French.',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello!' }] }],
        max_tokens: 100,
      });

      const log = await f.lastLog();
      expect([log.model_name, log.prompt_tokens, log.completion_tokens, log.is_stream]).toEqual([
        'claude-3-5-sonnet-20240620',
        17,
        16,
        0,
      ]);
      expect(log.quota).toBe(quota('claude-3-5-sonnet-20240620', 17, 16));
    });

    it('streams OpenAI chat from an AWS event stream, through the US inference profile', async () => {
      const { text, usage } = await streamChat(f.openai(), 'claude-sonnet-4-20250514', 'Why is the sky blue?');
      expect(text).toBe('The sky looks blue because air scatters short wavelengths of sunlight the most.');
      expect(usage).toMatchObject({ prompt_tokens: 21, completion_tokens: 19 });
      const sent = bedrock.requests.at(-1)!;
      expect(sent.url).toBe('/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/invoke-with-response-stream');
      expect(sent.signatureValid).toBe(true);
      expect(sent.body).not.toHaveProperty('stream');
      const log = await f.lastLog();
      expect([log.prompt_tokens, log.completion_tokens, log.is_stream]).toEqual([21, 19, 1]);
      expect(log.quota).toBe(quota('claude-sonnet-4-20250514', 21, 19));
    });

    it('passes Claude clients through: the body rewritten for Bedrock, betas moved into it', async () => {
      const message = await anthropic.messages.create(
        { model: 'claude-3-5-sonnet-20240620', max_tokens: 64, messages: [{ role: 'user', content: 'Salut' }] },
        { headers: { 'anthropic-beta': 'prompt-caching-2024-07-31' } },
      );
      expect(message).toMatchObject({
        id: 'msg_bdrk_01BVaHKJNwG1f9mRCmRtz8Qc',
        type: 'message',
        usage: { input_tokens: 17, output_tokens: 16 },
      });
      const sent = bedrock.requests.at(-1)!;
      expect(sent.signatureValid).toBe(true);
      expect(sent.headers['anthropic-beta']).toBeUndefined();
      expect(sent.body).toEqual({
        anthropic_version: 'bedrock-2023-05-31',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'Salut' }],
        anthropic_beta: ['prompt-caching-2024-07-31'],
      });
      expect((await f.lastLog()).quota).toBe(quota('claude-3-5-sonnet-20240620', 17, 16));

      const stream = anthropic.messages.stream({
        model: 'claude-sonnet-4-20250514',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'Sky?' }],
      });
      expect(await stream.finalText()).toBe('The sky looks blue because air scatters short wavelengths of sunlight the most.');
      expect((await stream.finalMessage()).usage).toMatchObject({ input_tokens: 21, output_tokens: 19 });
      expect(bedrock.requests.at(-1)!.url).toBe(
        '/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/invoke-with-response-stream',
      );
      const log = await f.lastLog();
      expect([log.prompt_tokens, log.completion_tokens, log.is_stream]).toEqual([21, 19, 1]);
    });

    it('takes Claude betas into the body from an OpenAI client’s header and a Claude client’s body field', async () => {
      await f
        .openai()
        .chat.completions.create(
          { model: 'claude-3-5-sonnet-20240620', messages: [{ role: 'user', content: 'Hello!' }], max_tokens: 100 },
          { headers: { 'anthropic-beta': 'prompt-caching-2024-07-31' } },
        );
      expect(bedrock.requests.at(-1)!.body.anthropic_beta).toEqual(['prompt-caching-2024-07-31']);
      const res = await fetch(`${f.tg.url}/v1/messages`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-key': f.key,
          'anthropic-version': '2023-06-01',
          'anthropic-beta': 'prompt-caching-2024-07-31',
        },
        body: JSON.stringify({
          model: 'claude-3-5-sonnet-20240620',
          max_tokens: 64,
          messages: [{ role: 'user', content: 'Salut' }],
          anthropic_beta: ['context-1m-2025-08-07', 'prompt-caching-2024-07-31'],
        }),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      const sent = bedrock.requests.at(-1)!;
      expect(sent.signatureValid).toBe(true);
      expect(sent.body.anthropic_beta).toEqual(['prompt-caching-2024-07-31', 'context-1m-2025-08-07']);
    });

    it('passes an exception in the event stream on as an error, to both kinds of client', async () => {
      const claudeStream = anthropic.messages.stream({
        model: 'claude-3-haiku-20240307',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'Story' }],
      });
      await expect(claudeStream.finalText()).rejects.toThrow(/Model stream error: the model stopped responding/);

      const openaiStream = await f.openai().chat.completions.create({
        model: 'claude-3-haiku-20240307',
        messages: [{ role: 'user', content: 'Story' }],
        stream: true,
      });
      let text = '';
      await expect(
        (async () => {
          for await (const chunk of openaiStream) text += chunk.choices[0]?.delta.content ?? '';
        })(),
      ).rejects.toThrow(/modelStreamErrorException: Model stream error/);
      expect(text).toBe('Once upon');
    });

    it('answers a wrong secret with AWS’s message, and a malformed key without calling AWS', async () => {
      const before = bedrock.requests.length;
      const wrong = f
        .openai()
        .chat.completions.create({ model: 'claude-3-opus-20240229', messages: [{ role: 'user', content: 'x' }] });
      await expect(wrong).rejects.toThrow(/The request signature we calculated does not match the signature you provided/);
      expect(bedrock.requests.at(-1)!.signatureValid).toBe(false);

      const malformed = f
        .openai()
        .chat.completions.create({ model: 'claude-3-sonnet-20240229', messages: [{ role: 'user', content: 'x' }] });
      await expect(malformed).rejects.toThrow(/AWS 密钥格式应为 AccessKeyId\|SecretAccessKey\|Region/);
      // The channel's own fault, answered like the upstream's 401 (not a connection failure).
      await expect(malformed).rejects.toMatchObject({ status: 401 });
      expect(bedrock.requests.length).toBe(before + 1);
    });
  });

  describe('Vertex AI', () => {
    it('serves OpenAI chat from Gemini models with a bearer token, streaming and not', async () => {
      const answer = await f.openai().chat.completions.create({
        model: 'gemini-2.5-flash',
        messages: [{ role: 'user', content: 'Capital of Portugal?' }],
      });
      expect(answer.choices[0]?.message.content).toBe('Lisbon is the capital of Portugal.');
      const sent = vertex.requests.at(-1)!;
      expect(sent.url).toBe(
        `/v1/projects/${PROJECT}/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent`,
      );
      expect(sent.headers.authorization).toMatch(/^Bearer ya29\.c\.stand-in-\d+$/);
      expect(sent.body).toMatchObject({ contents: [{ role: 'user', parts: [{ text: 'Capital of Portugal?' }] }] });
      let log = await f.lastLog();
      expect([log.prompt_tokens, log.completion_tokens]).toEqual([8, 7]);
      expect(log.quota).toBe(quota('gemini-2.5-flash', 8, 7));

      const stream = await f.openai().chat.completions.create({
        model: 'gemini-2.5-flash',
        messages: [{ role: 'user', content: 'Tides?' }],
        stream: true,
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      expect(text).toBe('Tides rise and fall with the pull of the Moon.');
      expect(vertex.requests.at(-1)!.url).toBe(
        `/v1/projects/${PROJECT}/locations/us-central1/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse`,
      );
      log = await f.lastLog();
      // Thoughts are billed as completion.
      expect([log.prompt_tokens, log.completion_tokens, log.is_stream]).toEqual([6, 12 + 40, 1]);
      expect(log.quota).toBe(quota('gemini-2.5-flash', 6, 52));
    });

    it('passes Gemini clients through on /v1beta, streaming and not', async () => {
      const answer = await genai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Capital of Portugal?' });
      expect(answer.text).toBe('Lisbon is the capital of Portugal.');
      const sent = vertex.requests.at(-1)!;
      expect(sent.url).toBe(
        `/v1/projects/${PROJECT}/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent`,
      );
      expect(sent.headers['x-goog-api-key']).toBeUndefined();
      expect(sent.body).toMatchObject({ contents: [{ role: 'user', parts: [{ text: 'Capital of Portugal?' }] }] });
      expect((await f.lastLog()).quota).toBe(quota('gemini-2.5-flash', 8, 7));

      const stream = await genai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'Tides?' });
      let text = '';
      for await (const chunk of stream) text += chunk.text ?? '';
      expect(text).toBe('Tides rise and fall with the pull of the Moon.');
      const log = await f.lastLog();
      expect([log.prompt_tokens, log.completion_tokens, log.is_stream]).toEqual([6, 52, 1]);
    });

    it('passes Claude clients through to rawPredict in the model’s region, with Vertex’s body', async () => {
      const message = await anthropic.messages.create({
        model: 'claude-3-7-sonnet-20250219',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      expect(message).toMatchObject({ id: 'msg_vrtx_01HkT9pW3sYb6QdN2mLrV8Ze', usage: { input_tokens: 13, output_tokens: 14 } });
      const sent = vertex.requests.at(-1)!;
      expect(sent.url).toBe(
        `/v1/projects/${PROJECT}/locations/us-east5/publishers/anthropic/models/claude-3-7-sonnet@20250219:rawPredict`,
      );
      expect(sent.headers.authorization).toMatch(/^Bearer ya29\./);
      expect(sent.body).toEqual({
        anthropic_version: 'vertex-2023-10-16',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      expect((await f.lastLog()).quota).toBe(quota('claude-3-7-sonnet-20250219', 13, 14));

      const stream = anthropic.messages.stream({
        model: 'claude-3-7-sonnet-20250219',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'Rain?' }],
      });
      expect(await stream.finalText()).toBe('Rain falls when droplets in clouds grow too heavy to float.');
      const streamed = vertex.requests.at(-1)!;
      expect(streamed.url).toBe(
        `/v1/projects/${PROJECT}/locations/us-east5/publishers/anthropic/models/claude-3-7-sonnet@20250219:streamRawPredict`,
      );
      expect(streamed.body).toMatchObject({ anthropic_version: 'vertex-2023-10-16', stream: true });
      const log = await f.lastLog();
      expect([log.prompt_tokens, log.completion_tokens, log.is_stream]).toEqual([11, 15, 1]);
      expect(log.quota).toBe(quota('claude-3-7-sonnet-20250219', 11, 15));
    });

    it('converts OpenAI and Gemini clients for Claude models on Vertex', async () => {
      const { text, usage } = await streamChat(f.openai(), 'claude-3-7-sonnet-20250219', 'Rain?');
      expect(text).toBe('Rain falls when droplets in clouds grow too heavy to float.');
      expect(usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 15 });
      const sent = vertex.requests.at(-1)!;
      expect(sent.action).toBe('streamRawPredict');
      expect(sent.body).toMatchObject({
        anthropic_version: 'vertex-2023-10-16',
        stream: true,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Rain?' }] }],
      });
      expect(sent.body).not.toHaveProperty('model');

      const answer = await genai.models.generateContent({ model: 'claude-3-7-sonnet-20250219', contents: 'Hi' });
      expect(answer.text).toBe('Hi there! What would you like to talk about?');
      expect(vertex.requests.at(-1)!.action).toBe('rawPredict');
      expect((await f.lastLog()).quota).toBe(quota('claude-3-7-sonnet-20250219', 13, 14));
    });

    it('fetches one token for an account and serves many requests with it', async () => {
      const ask = () =>
        f.openai().chat.completions.create({ model: 'gemini-2.5-pro', messages: [{ role: 'user', content: 'Capital?' }] });
      await Promise.all([ask(), ask(), ask()]);
      await ask();
      await ask();
      const fetched = vertex.tokenRequests.filter((t) => t.issuer === CACHED.email);
      expect(fetched).toHaveLength(1);
      expect(fetched[0]).toMatchObject({ granted: true, claims: { scope: 'https://www.googleapis.com/auth/cloud-platform' } });
      const calls = vertex.requests.filter((r) => r.model === 'gemini-2.5-pro');
      expect(calls).toHaveLength(5);
      expect(new Set(calls.map((c) => c.headers.authorization)).size).toBe(1);
      expect(calls.every((c) => c.region === 'europe-west4')).toBe(true);
    });

    it('answers a key the token endpoint refuses like an upstream 401, never calls the model, and reports the channel', async () => {
      const ctx = f.tg.gateway.ctx;
      const before = vertex.requests.length;
      await f.root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' });
      try {
        const refused = f
          .openai()
          .chat.completions.create({ model: 'gemini-2.0-flash', messages: [{ role: 'user', content: 'x' }] });
        await expect(refused).rejects.toThrow(/Vertex AI 访问令牌获取失败（400）：invalid_grant: Invalid JWT Signature\./);
        await expect(refused).rejects.toMatchObject({ status: 401 });
        expect(vertex.tokenRequests.at(-1)).toMatchObject({ issuer: MAIN.email, claims: null, granted: false });
        expect(vertex.requests.length).toBe(before);
        const log = await f.lastLog();
        expect(log.content).toContain('invalid_grant');
        // Refused credentials count as the channel's failure: auto-disabled like an upstream 401.
        const status = async () =>
          (await ctx.db.selectFrom('channels').select('status').where('id', '=', ids.forged!).executeTakeFirst())?.status;
        await expect.poll(status).toBe(3);
      } finally {
        await f.root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'false' });
      }
    });
  });

  it('offers each type’s models to the console', async () => {
    const models = (await f.root.get('/api/models')).body.data as Record<string, string[]>;
    expect(models['33']).toEqual(
      expect.arrayContaining(['claude-3-5-sonnet-20240620', 'claude-sonnet-4-20250514', 'claude-3-7-sonnet-20250219']),
    );
    expect(models['41']).toEqual(expect.arrayContaining(['gemini-2.5-flash', 'gemini-2.5-pro', 'claude-sonnet-4-20250514']));
    expect(models['41']).not.toContain('text-embedding-004');
  });

  describe('channel tests', () => {
    const test = async (id: number, model?: string) =>
      (await f.root.get(`/api/channel/test/${id}${model ? `?model=${model}` : ''}`)).body as {
        success: boolean;
        message: string;
      };

    it('pass through the same signed and token-bearing calls, in either Vertex protocol', async () => {
      expect(await test(ids.bedrock!, 'claude-3-5-sonnet-20240620')).toMatchObject({ success: true });
      expect(bedrock.requests.at(-1)).toMatchObject({ signatureValid: true, body: { max_tokens: 1 } });
      expect(await test(ids.vertex!)).toMatchObject({ success: true });
      expect(vertex.requests.at(-1)).toMatchObject({ publisher: 'google', model: 'gemini-2.5-flash' });
      expect(await test(ids.vertex!, 'claude-3-7-sonnet-20250219')).toMatchObject({ success: true });
      expect(vertex.requests.at(-1)).toMatchObject({
        publisher: 'anthropic',
        model: 'claude-3-7-sonnet@20250219',
        action: 'rawPredict',
      });
    });

    it('fail with the upstream’s reason', async () => {
      const wrong = await test(ids.wrongSecret!);
      expect(wrong.success).toBe(false);
      expect(wrong.message).toContain('The request signature we calculated does not match');
      const forged = await test(ids.forged!);
      expect(forged.success).toBe(false);
      expect(forged.message).toContain('invalid_grant');
    });
  });
});
