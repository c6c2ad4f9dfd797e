/**
 * The real gateway, called through the `openai` SDK, in front of local stand-ins for Baidu ERNIE
 * (15), Baidu qianfan v2 (46), Zhipu (16), Tencent hunyuan (23), iFlytek Spark (18, a real
 * websocket) and PaLM 2 (11): outbound URL, headers and body, the client's answer streamed and not,
 * the usage billed in the log row, upstream errors with their statuses, and channel tests.
 */
import { createHmac } from 'node:crypto';
import OpenAI, { APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from '../../server/relay/metering/tokenizer.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { startReplayServer, type ReplayServer } from '../helpers/upstreams/replay.js';
import { BAIDU_AK, BAIDU_SK, startBaiduStandIn, type BaiduStandIn } from '../helpers/upstreams/baidu.js';
import { TENCENT_SECRET_ID, TENCENT_SECRET_KEY, startTencentStandIn, type TencentStandIn } from '../helpers/upstreams/tencent.js';
import {
  SPARK_API_KEY,
  SPARK_API_SECRET,
  SPARK_APP_ID,
  startSparkStandIn,
  type SparkStandIn,
} from '../helpers/upstreams/iflytek.js';

const MODELS = [
  'ERNIE-4.0-8K',
  'ERNIE-3.5-8K',
  'ERNIE-QPS',
  'ERNIE-Bad-Key',
  'ernie-4.0-turbo-8k',
  'glm-4',
  'hunyuan-lite',
  'hunyuan-limited',
  'hunyuan-bad-secret',
  'SparkDesk-v3.5',
  'spark-lite',
  'chat-bison-001',
];

const messages: OpenAI.ChatCompletionMessageParam[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Hi' },
];

describe('relay to Baidu, Baidu v2, Zhipu, Tencent, iFlytek and PaLM channels', () => {
  let f: RelayFixture;
  let baidu: BaiduStandIn;
  let tencent: TencentStandIn;
  let spark: SparkStandIn;
  let palm: ReplayServer;
  let zhipu: ReplayServer;
  const channels: Record<string, number> = {};

  beforeAll(async () => {
    f = await startRelayFixture('sqlite');
    [baidu, tencent, spark] = await Promise.all([startBaiduStandIn(), startTencentStandIn(), startSparkStandIn()]);
    palm = await startReplayServer('palm', [{ path: /:generateMessage$/, fixture: () => 'message.json' }]);
    zhipu = await startReplayServer('zhipu', [
      { path: /^\/api\/paas\/v4\/chat\/completions$/, fixture: (r) => (r.body.stream ? 'stream.chunks.txt' : 'chat.json') },
    ]);
    const ratios = JSON.parse(f.tg.gateway.ctx.options.raw('ModelRatio'));
    for (const m of MODELS) ratios[m] = 1;
    await f.root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify(ratios) });
    const add = async (name: string, fields: Record<string, unknown>) =>
      (channels[name] = await f.addChannel({ name, ...fields }));
    await add('baidu', {
      type: 15,
      key: `${BAIDU_AK}|${BAIDU_SK}`,
      base_url: baidu.url,
      models: 'ERNIE-4.0-8K,ERNIE-3.5-8K,ERNIE-QPS',
    });
    await add('baidu-bad-key', { type: 15, key: 'wrong-ak|wrong-sk', base_url: baidu.url, models: 'ERNIE-Bad-Key' });
    await add('baidu-v2', { type: 46, key: 'bce-v3/ALTAK-test/secret', base_url: f.upstream.url, models: 'ernie-4.0-turbo-8k' });
    await add('zhipu', { type: 16, key: 'zhipuid.zhipusecret', base_url: zhipu.url, models: 'glm-4' });
    await add('tencent', {
      type: 23,
      key: `1300000000|${TENCENT_SECRET_ID}|${TENCENT_SECRET_KEY}`,
      base_url: tencent.url,
      models: 'hunyuan-lite,hunyuan-limited',
    });
    await add('tencent-bad', {
      type: 23,
      key: `1300000000|${TENCENT_SECRET_ID}|wrong`,
      base_url: tencent.url,
      models: 'hunyuan-bad-secret',
    });
    await add('iflytek', {
      type: 18,
      key: `${SPARK_APP_ID}|${SPARK_API_SECRET}|${SPARK_API_KEY}`,
      base_url: spark.url,
      other: 'v1.1',
      models: 'SparkDesk-v3.5,spark-lite',
    });
    await add('palm', { type: 11, key: 'AIza-palm-key', base_url: palm.url, models: 'chat-bison-001' });
  });
  afterAll(async () => {
    await f?.close();
    await Promise.all([baidu?.close(), tencent?.close(), spark?.close(), palm?.close(), zhipu?.close()]);
  });

  const ask = (model: string, extra: Partial<OpenAI.ChatCompletionCreateParamsNonStreaming> = {}) =>
    f.openai().chat.completions.create({ model, messages, ...extra });

  async function askStream(model: string): Promise<{ text: string; usage?: OpenAI.CompletionUsage; chunks: number }> {
    const stream = await f.openai().chat.completions.create({
      model,
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined;
    let chunks = 0;
    for await (const chunk of stream) {
      const piece = chunk.choices[0]?.delta?.content ?? '';
      if (piece !== '') chunks++;
      text += piece;
      if (chunk.usage) usage = chunk.usage;
    }
    return { text, usage, chunks };
  }

  async function failure(model: string): Promise<APIError> {
    try {
      await ask(model);
    } catch (err) {
      return err as APIError;
    }
    throw new Error(`${model} should have failed`);
  }

  describe('Baidu ERNIE (15)', () => {
    it('fetches an access token, calls the model endpoint and bills ERNIE usage', async () => {
      const answer = await ask('ERNIE-4.0-8K', { max_tokens: 50 });
      expect(answer.choices[0]?.message.content).toBe('北京，简称“京”，是中华人民共和国的首都。');
      expect(baidu.tokenFetches).toBe(1);
      const sent = baidu.requests.at(-1)!;
      expect(sent.url).toBe('/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions_pro?access_token=24.stand-in-token-1');
      expect(sent.body).toEqual({
        messages: [{ role: 'user', content: 'Hi' }],
        system: 'Be brief.',
        stream: false,
        max_output_tokens: 50,
      });
      const log = await f.lastLog();
      expect([log.prompt_tokens, log.completion_tokens, log.quota]).toEqual([6, 17, 23]);
    });

    it('streams ERNIE results with the cached token', async () => {
      const { text, usage } = await askStream('ERNIE-3.5-8K');
      expect(text).toBe('北京是中国的首都，也是政治和文化中心。');
      expect(usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 19 });
      expect(baidu.tokenFetches).toBe(1);
      expect(baidu.requests.at(-1)!.url).toBe(
        '/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions?access_token=24.stand-in-token-1',
      );
      expect(baidu.requests.at(-1)!.body).toMatchObject({ stream: true });
      const log = await f.lastLog();
      expect([log.prompt_tokens, log.completion_tokens, log.is_stream]).toEqual([5, 19, 1]);
    });

    it('fetches a new token once when ERNIE refuses the cached one', async () => {
      baidu.revokeTokens();
      const before = baidu.requests.length;
      const answer = await ask('ERNIE-4.0-8K');
      expect(answer.choices[0]?.message.content).toContain('北京');
      expect(baidu.tokenFetches).toBe(2);
      expect(baidu.requests.slice(before).map((r) => new URL(r.url, 'http://x').searchParams.get('access_token'))).toEqual([
        '24.stand-in-token-1',
        '24.stand-in-token-2',
      ]);
    });

    it('answers ERNIE errors sent behind a 200 with the status of their code', async () => {
      const limited = await failure('ERNIE-QPS');
      expect(limited.status).toBe(429);
      expect(limited.message).toContain('Open api qps request limit reached');
      const badKey = await failure('ERNIE-Bad-Key');
      expect(badKey.status).toBe(401);
      expect(badKey.message).toContain('unknown client id');
    });
  });

  describe('Baidu qianfan v2 (46)', () => {
    it('posts OpenAI chat to /v2/chat/completions with the Bearer key', async () => {
      const answer = await ask('ernie-4.0-turbo-8k');
      expect(answer.choices[0]?.message.content).toBe('Hello! How can I assist you today?');
      const sent = f.upstream.requests.at(-1)!;
      expect(sent.url).toBe('/v2/chat/completions');
      expect(sent.headers.authorization).toBe('Bearer bce-v3/ALTAK-test/secret');
      expect(sent.body).toMatchObject({ model: 'ernie-4.0-turbo-8k', messages });
      expect((await f.lastLog()).completion_tokens).toBe(10);
    });
  });

  describe('Zhipu (16)', () => {
    const verifyJwt = (authorization: unknown) => {
      const token = String(authorization).replace(/^Bearer /, '');
      const [header, payload, signature] = token.split('.');
      expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({ alg: 'HS256', sign_type: 'SIGN' });
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      expect(claims.api_key).toBe('zhipuid');
      expect(claims.exp).toBeGreaterThan(Date.now());
      expect(signature).toBe(createHmac('sha256', 'zhipusecret').update(`${header}.${payload}`).digest('base64url'));
    };

    it('calls the v4 API with a JWT signed from the id.secret key', async () => {
      const answer = await ask('glm-4');
      expect(answer.choices[0]?.message.content).toBe('你好！很高兴见到你，有什么可以帮你的吗？');
      const sent = zhipu.requests.at(-1)!;
      expect(sent.url).toBe('/api/paas/v4/chat/completions');
      verifyJwt(sent.headers.authorization);
      expect(sent.body).toMatchObject({ model: 'glm-4', messages });
      const log = await f.lastLog();
      expect([log.prompt_tokens, log.completion_tokens]).toEqual([8, 12]);
    });

    it('streams v4 chunks with their usage', async () => {
      const { text, usage } = await askStream('glm-4');
      expect(text).toBe('你好！有什么可以帮你的吗？');
      expect(usage).toMatchObject({ prompt_tokens: 8, completion_tokens: 9 });
      verifyJwt(zhipu.requests.at(-1)!.headers.authorization);
      expect(zhipu.requests.at(-1)!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
      expect((await f.lastLog()).completion_tokens).toBe(9);
    });
  });

  describe('Tencent hunyuan (23)', () => {
    it('signs ChatCompletions with TC3-HMAC-SHA256 and converts the answer', async () => {
      const answer = await ask('hunyuan-lite', { temperature: 0.5 });
      expect(answer.choices[0]?.message.content).toBe('你好！有什么我可以帮你的吗？');
      const sent = tencent.requests.at(-1)!;
      expect(sent.signatureValid).toBe(true);
      expect(sent.url).toBe('/');
      expect(sent.headers).toMatchObject({ 'x-tc-action': 'ChatCompletions', 'x-tc-version': '2023-09-01' });
      expect(sent.headers.authorization).toMatch(
        /^TC3-HMAC-SHA256 Credential=AKIDstandin0123456789\/\d{4}-\d{2}-\d{2}\/hunyuan\/tc3_request, /,
      );
      expect(sent.body).toEqual({
        Model: 'hunyuan-lite',
        Messages: [
          { Role: 'system', Content: 'Be brief.' },
          { Role: 'user', Content: 'Hi' },
        ],
        Stream: false,
        Temperature: 0.5,
      });
      const log = await f.lastLog();
      expect([log.prompt_tokens, log.completion_tokens, log.quota]).toEqual([4, 9, 13]);
    });

    it('streams Choices[].Delta', async () => {
      const { text, usage } = await askStream('hunyuan-lite');
      expect(text).toBe('你好！有什么可以帮你的吗？');
      expect(usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 9 });
      expect(tencent.requests.at(-1)).toMatchObject({ signatureValid: true, body: { Stream: true } });
      const log = await f.lastLog();
      expect([log.completion_tokens, log.is_stream]).toEqual([9, 1]);
    });

    it('answers Tencent errors sent behind a 200 with the status of their code', async () => {
      const limited = await failure('hunyuan-limited');
      expect(limited.status).toBe(429);
      expect(limited.message).toContain('LimitExceeded');
      const unsigned = await failure('hunyuan-bad-secret');
      expect(unsigned.status).toBe(401);
      expect(unsigned.message).toContain('AuthFailure.SignatureFailure');
      expect(tencent.requests.at(-1)!.signatureValid).toBe(false);
    });
  });

  describe('iFlytek Spark (18)', () => {
    it('exchanges frames over a signed websocket, the version from the channel', async () => {
      const answer = await ask('spark-lite', { max_tokens: 64 });
      expect(answer.choices[0]?.message.content).toBe('你好！我是讯飞星火认知大模型，很高兴为你服务。');
      const sent = spark.requests.at(-1)!;
      expect(sent.path).toBe('/v1.1/chat');
      expect(sent.frame).toEqual({
        header: { app_id: SPARK_APP_ID },
        parameter: { chat: { domain: 'lite', max_tokens: 64 } },
        payload: {
          message: {
            text: [
              { role: 'system', content: 'Be brief.' },
              { role: 'user', content: 'Hi' },
            ],
          },
        },
      });
      const log = await f.lastLog();
      expect([log.prompt_tokens, log.completion_tokens]).toEqual([5, 19]);
    });

    it('streams frames, the version from a SparkDesk model name', async () => {
      const { text, usage, chunks } = await askStream('SparkDesk-v3.5');
      expect(text).toBe('你好！我是讯飞星火认知大模型，很高兴为你服务。');
      expect(chunks).toBe(3);
      expect(usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 19 });
      expect(spark.requests.at(-1)).toMatchObject({
        path: '/v3.5/chat',
        frame: { parameter: { chat: { domain: 'generalv3.5' } } },
      });
      expect((await f.lastLog()).is_stream).toBe(1);
    });

    it('answers an error frame with the status of its code', async () => {
      let error: APIError | undefined;
      try {
        await f.openai().chat.completions.create({ model: 'spark-lite', messages: [{ role: 'user', content: 'audit me' }] });
      } catch (err) {
        error = err as APIError;
      }
      expect(error?.status).toBe(400);
      expect(error?.message).toContain('input content audit fail');
    });
  });

  describe('PaLM 2 (11)', () => {
    it('calls generateMessage with the key in the query and counts usage locally', async () => {
      const answer = await ask('chat-bison-001');
      expect(answer.choices[0]?.message.content).toBe('Hello! How can I help you today?');
      const sent = palm.requests.at(-1)!;
      expect(sent.url).toBe('/v1beta2/models/chat-bison-001:generateMessage?key=AIza-palm-key');
      expect(sent.body).toEqual({ prompt: { context: 'Be brief.', messages: [{ author: '0', content: 'Hi' }] } });
      const log = await f.lastLog();
      expect(log.completion_tokens).toBe(await countTokens('Hello! How can I help you today?'));
      expect(log.prompt_tokens).toBeGreaterThan(0);
    });

    it('streams the whole answer as a single chunk', async () => {
      const { text, chunks } = await askStream('chat-bison-001');
      expect(text).toBe('Hello! How can I help you today?');
      expect(chunks).toBe(1);
      const log = await f.lastLog();
      expect([log.completion_tokens, log.is_stream]).toEqual([await countTokens(text), 1]);
    });
  });

  it('serves Claude-format clients through the same adapters', async () => {
    const res = await fetch(`${f.tg.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': f.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'SparkDesk-v3.5', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(res.status).toBe(200);
    const answer = await res.json();
    expect(answer).toMatchObject({
      type: 'message',
      content: [{ type: 'text', text: '你好！我是讯飞星火认知大模型，很高兴为你服务。' }],
      usage: { input_tokens: 5, output_tokens: 19 },
    });
    expect(spark.requests.at(-1)!.frame.parameter.chat).toEqual({ domain: 'generalv3.5', max_tokens: 100 });
  });

  it('tests each channel through the same exchange', async () => {
    for (const name of ['baidu', 'baidu-v2', 'zhipu', 'tencent', 'iflytek', 'palm']) {
      const res = await f.root.get(`/api/channel/test/${channels[name]}`);
      expect(res.body, `${name}: ${JSON.stringify(res.body)}`).toMatchObject({ success: true });
    }
    const bad = await f.root.get(`/api/channel/test/${channels['tencent-bad']}`);
    expect(bad.body.success).toBe(false);
    expect(bad.body.message).toContain('AuthFailure.SignatureFailure');
  });
});
