/**
 * iFlytek Spark: the signed URL against the example of iFlytek's URL-authentication document,
 * versions, frame conversion replayed from tests/fixtures/providers/iflytek/, and the websocket
 * exchange against the local stand-in (a real websocket server that checks the signature).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sparkAuthorization, sparkSignature, sparkSignedUrl } from '../../../server/relay/providers/iflytek/auth.js';
import { sparkVersion, sparkVersionOf } from '../../../server/relay/providers/iflytek/versions.js';
import {
  SparkAnswer,
  convertSparkResponse,
  convertToSparkFrame,
  createSparkStreamParser,
  sparkErrorOf,
  sparkErrorStatus,
} from '../../../server/relay/providers/iflytek/convert.js';
import { sparkExchange } from '../../../server/relay/providers/iflytek/socket.js';
import { sparkSocketUrl, splitSparkKey } from '../../../server/relay/providers/iflytek/index.js';
import { readText } from '../../../server/relay/call/call-upstream.js';
import { SPARK_API_KEY, SPARK_API_SECRET, startSparkStandIn, type SparkStandIn } from '../../helpers/upstreams/iflytek.js';

const dir = new URL('../../fixtures/providers/iflytek/', import.meta.url);
const text = (name: string) => readFileSync(new URL(name, dir), 'utf8');
const frames = () =>
  text('stream.frames.jsonl')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));

describe('Spark URL signing', () => {
  // iFlytek's document: APISecret MjlmNzkzNmZkMDQ2OTc0ZDdmNGE2ZTZi, APIKey addd2272…, date Fri, 05 May 2023 10:43:39 GMT.
  const credentials = { apiKey: 'addd2272b6d8b7c8abdd79531420ca3b', apiSecret: 'MjlmNzkzNmZkMDQ2OTc0ZDdmNGE2ZTZi' };
  const date = 'Fri, 05 May 2023 10:43:39 GMT';

  it('reproduces the documented signature and authorization', () => {
    expect(sparkSignature(credentials.apiSecret, 'spark-api.xf-yun.com', date, '/v1.1/chat')).toBe(
      'z5gHdu3pxVV4ADMyk467wOWDQ9q6BQzR3nfMTjc/DaQ=',
    );
    expect(sparkAuthorization(credentials, 'spark-api.xf-yun.com', date, '/v1.1/chat')).toBe(
      'YXBpX2tleT0iYWRkZDIyNzJiNmQ4YjdjOGFiZGQ3OTUzMTQyMGNhM2IiLCBhbGdvcml0aG09ImhtYWMtc2hhMjU2IiwgaGVhZGVycz0iaG9zdCBkYXRlIHJlcXVlc3QtbGluZSIsIHNpZ25hdHVyZT0iejVnSGR1M3B4VlY0QURNeWs0Njd3T1dEUTlxNkJRelIzbmZNVGpjL0RhUT0i',
    );
  });

  it('builds the signed URL with authorization, date and host', () => {
    expect(sparkSignedUrl('wss://spark-api.xf-yun.com/v1.1/chat', credentials, new Date(date))).toBe(
      'wss://spark-api.xf-yun.com/v1.1/chat?authorization=YXBpX2tleT0iYWRkZDIyNzJiNmQ4YjdjOGFiZGQ3OTUzMTQyMGNhM2IiLCBhbGdvcml0aG09ImhtYWMtc2hhMjU2IiwgaGVhZGVycz0iaG9zdCBkYXRlIHJlcXVlc3QtbGluZSIsIHNpZ25hdHVyZT0iejVnSGR1M3B4VlY0QURNeWs0Njd3T1dEUTlxNkJRelIzbmZNVGpjL0RhUT0i&date=Fri%2C+05+May+2023+10%3A43%3A39+GMT&host=spark-api.xf-yun.com',
    );
  });

  it('turns http(s) base URLs into ws(s) addresses and splits keys', () => {
    expect(sparkSocketUrl(null, '/v3.5/chat')).toBe('wss://spark-api.xf-yun.com/v3.5/chat');
    expect(sparkSocketUrl('http://127.0.0.1:9000/', '/v1.1/chat')).toBe('ws://127.0.0.1:9000/v1.1/chat');
    expect(splitSparkKey('app|secret|key')).toEqual({ appId: 'app', apiSecret: 'secret', apiKey: 'key' });
    expect(splitSparkKey('app|secret')).toBeNull();
  });
});

describe('Spark versions', () => {
  it('takes the version from a SparkDesk model name, else the channel, else v2.1', () => {
    expect(sparkVersionOf('SparkDesk-v3.5', 'v1.1')).toBe('v3.5');
    expect(sparkVersionOf('spark-custom', 'v4.0')).toBe('v4.0');
    expect(sparkVersionOf('spark-custom', '')).toBe('v2.1');
    expect(sparkVersionOf('spark-custom', null)).toBe('v2.1');
  });

  it('maps each version to its documented path and domain', () => {
    expect(sparkVersion('v1.1')).toEqual({ path: '/v1.1/chat', domain: 'lite' });
    expect(sparkVersion('v2.1')).toEqual({ path: '/v2.1/chat', domain: 'generalv2' });
    expect(sparkVersion('v3.1')).toEqual({ path: '/v3.1/chat', domain: 'generalv3' });
    expect(sparkVersion('v3.5')).toEqual({ path: '/v3.5/chat', domain: 'generalv3.5' });
    expect(sparkVersion('v4.0')).toEqual({ path: '/v4.0/chat', domain: '4.0Ultra' });
    expect(sparkVersion('pro-128k')).toEqual({ path: '/chat/pro-128k', domain: 'pro-128k' });
    expect(sparkVersion('max-32k')).toEqual({ path: '/chat/max-32k', domain: 'max-32k' });
    expect(sparkVersion('v9.9')).toBeNull();
  });
});

describe('Spark frames', () => {
  it('builds the header/parameter/payload request frame', () => {
    expect(
      convertToSparkFrame(
        {
          model: 'SparkDesk-v3.5',
          messages: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'Hi' },
          ],
          temperature: 0.5,
          max_tokens: 512,
          top_k: 4,
          user: 'x'.repeat(40),
        },
        { appId: 'app-1', domain: 'generalv3.5' },
      ),
    ).toEqual({
      header: { app_id: 'app-1', uid: 'x'.repeat(32) },
      parameter: { chat: { domain: 'generalv3.5', temperature: 0.5, max_tokens: 512, top_k: 4 } },
      payload: {
        message: {
          text: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'Hi' },
          ],
        },
      },
    });
  });

  it('collects the frames of a whole answer into one, converted with its usage', () => {
    const whole = new SparkAnswer();
    for (const frame of frames()) {
      expect(whole.done).toBe(false);
      whole.add(frame);
    }
    expect(whole.done).toBe(true);
    const { completion, usage } = convertSparkResponse(whole.frame(), 'SparkDesk-v3.5');
    expect(completion).toMatchObject({
      id: 'cht000cb087@dx18793cd421fb894542',
      model: 'SparkDesk-v3.5',
      choices: [{ message: { content: '你好！我是讯飞星火认知大模型，很高兴为你服务。' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 5, completion_tokens: 19 },
    });
    expect(usage).toEqual({ promptTokens: 5, completionTokens: 19 });
  });

  it('streams frames as text, the last frame bringing usage and the finish', () => {
    const parser = createSparkStreamParser('SparkDesk-v3.5');
    const events = frames().flatMap((f) => parser.push({ event: 'message', data: JSON.stringify(f) }));
    expect(events[0]).toMatchObject({ type: 'start', id: 'cht000cb087@dx18793cd421fb894542' });
    expect(events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('')).toBe(
      '你好！我是讯飞星火认知大模型，很高兴为你服务。',
    );
    expect(events.slice(-2)).toEqual([
      { type: 'usage', usage: { promptTokens: 5, completionTokens: 19 } },
      { type: 'finish', index: 0, reason: 'stop' },
    ]);
  });

  it('reads error frames and maps their codes', () => {
    expect(sparkErrorOf(JSON.parse(text('error-audit.json')))).toEqual({ code: 10013, message: 'input content audit fail' });
    expect(sparkErrorOf(frames()[0])).toBeNull();
    expect(sparkErrorOf(JSON.parse(text('error-handshake.json')))).toEqual({ code: 0, message: 'HMAC signature does not match' });
    expect(sparkErrorStatus(10013)).toBe(400);
    expect(sparkErrorStatus(11200)).toBe(403);
    expect(sparkErrorStatus(11202)).toBe(429);
    expect(sparkErrorStatus(10000)).toBe(500);
  });
});

describe('Spark websocket exchange', () => {
  let standIn: SparkStandIn;
  beforeAll(async () => {
    standIn = await startSparkStandIn();
  });
  afterAll(async () => standIn?.close());

  const credentials = { apiKey: SPARK_API_KEY, apiSecret: SPARK_API_SECRET };
  const frame = (content: string) =>
    JSON.stringify(convertToSparkFrame({ messages: [{ role: 'user', content }] }, { appId: 'app', domain: 'generalv3.5' }));
  const url = () => sparkSignedUrl(sparkSocketUrl(standIn.url, '/v3.5/chat'), credentials, new Date());

  it('answers a whole request with one JSON frame', async () => {
    const res = await sparkExchange(url(), frame('Hi'), false, new AbortController().signal);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    const answer = JSON.parse(await readText(res));
    expect(answer.payload.choices.text[0].content).toBe('你好！我是讯飞星火认知大模型，很高兴为你服务。');
    expect(answer.payload.usage.text.completion_tokens).toBe(19);
    expect(standIn.requests.at(-1)).toMatchObject({
      path: '/v3.5/chat',
      frame: { parameter: { chat: { domain: 'generalv3.5' } } },
    });
  });

  it('streams each frame as one SSE event', async () => {
    const res = await sparkExchange(url(), frame('Hi'), true, new AbortController().signal);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    const body = await readText(res);
    const events = body.split('\n\n').filter((e) => e !== '');
    expect(events).toHaveLength(3);
    expect(JSON.parse(events[2]!.slice('data: '.length)).header.status).toBe(2);
  });

  it('answers an error frame with the status of its code', async () => {
    const res = await sparkExchange(url(), frame('please audit this'), true, new AbortController().signal);
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(await readText(res)).header.code).toBe(10013);
  });

  it('answers a refused handshake with its HTTP status and body', async () => {
    const refusedBefore = standIn.refused;
    const bad = sparkSignedUrl(sparkSocketUrl(standIn.url, '/v3.5/chat'), { ...credentials, apiSecret: 'wrong' }, new Date());
    const res = await sparkExchange(bad, frame('Hi'), false, new AbortController().signal);
    expect(res.statusCode).toBe(401);
    expect(JSON.parse(await readText(res))).toEqual({ message: 'HMAC signature does not match' });
    expect(standIn.refused).toBe(refusedBefore + 1);
  });

  it('fails when the socket cannot be reached, and when cancelled', async () => {
    await expect(sparkExchange('ws://127.0.0.1:1/v3.5/chat', frame('Hi'), false, new AbortController().signal)).rejects.toThrow();
    const abort = new AbortController();
    const pending = sparkExchange(url(), frame('Hi'), false, abort.signal);
    abort.abort();
    await expect(pending).rejects.toThrow();
  });
});
