/**
 * AWS Claude (Bedrock) pieces, no network: keys, model ids, URLs, bodies, SigV4 signatures (checked
 * against an independent implementation of the algorithm), the event-stream decoder and errors.
 */
import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { EventStreamCodec, type MessageHeaders } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { describe, expect, it } from 'vitest';
import { parseAwsKey } from '../../../server/relay/providers/bedrock/bedrock-key.js';
import { bedrockModelId, profileGeography } from '../../../server/relay/providers/bedrock/bedrock-models.js';
import { bedrockBody, bedrockErrorMessage, invokeUrl } from '../../../server/relay/providers/bedrock/bedrock-request.js';
import { signBedrockRequest } from '../../../server/relay/providers/bedrock/sign-bedrock-request.js';
import { createBedrockEventStreamDecoder } from '../../../server/relay/providers/bedrock/bedrock-event-stream.js';
import { bedrock } from '../../../server/relay/providers/bedrock/index.js';
import { createClaudeStreamParser } from '../../../server/relay/wire/claude/claude-stream.js';
import type { SseEvent } from '../../../server/relay/wire/sse.js';

const fixtures = new URL('../../fixtures/providers/bedrock/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, fixtures), 'utf8');

const channel = (over: { key?: string; base_url?: string | null } = {}) => ({
  key: 'AKIDEXAMPLE|wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY|us-east-1',
  base_url: null,
  other: null,
  openai_organization: null,
  ...over,
});

describe('AWS key', () => {
  it('reads AccessKeyId|SecretAccessKey|Region', () => {
    expect(parseAwsKey(' AK | SK/x+y | eu-central-1 ')).toEqual({
      ok: true,
      key: { accessKeyId: 'AK', secretAccessKey: 'SK/x+y', region: 'eu-central-1' },
    });
    expect(parseAwsKey('AK|SK|us-gov-west-1').ok).toBe(true);
  });

  it('refuses other shapes with a message that never echoes the secret', () => {
    for (const bad of ['AK|SK', 'AK|SK|us-east-1|extra', '|SK|us-east-1', 'AK||us-east-1', '']) {
      const parsed = parseAwsKey(bad);
      expect(parsed).toEqual({ ok: false, message: 'AWS 密钥格式应为 AccessKeyId|SecretAccessKey|Region' });
    }
    // Parts in the wrong order: the secret in the region's place is not quoted back.
    expect(parseAwsKey('AK|us-east-1|wJalrXUtnFEMI/K7MDENG')).toEqual({
      ok: false,
      message: 'AWS 密钥的第三段应为区域，例如 us-east-1',
    });
  });
});

describe('Bedrock model ids', () => {
  it('maps gateway names to model ids, through the geography’s inference profile where Bedrock needs one', () => {
    expect(bedrockModelId('claude-3-5-sonnet-20240620', 'us-east-1')).toBe('anthropic.claude-3-5-sonnet-20240620-v1:0');
    expect(bedrockModelId('claude-3-haiku-20240307', 'eu-west-3')).toBe('anthropic.claude-3-haiku-20240307-v1:0');
    expect(bedrockModelId('claude-3-5-sonnet-20241022', 'us-west-2')).toBe('us.anthropic.claude-3-5-sonnet-20241022-v2:0');
    expect(bedrockModelId('claude-3-7-sonnet-20250219', 'us-east-1')).toBe('us.anthropic.claude-3-7-sonnet-20250219-v1:0');
    expect(bedrockModelId('claude-sonnet-4-20250514', 'eu-central-1')).toBe('eu.anthropic.claude-sonnet-4-20250514-v1:0');
    expect(bedrockModelId('claude-sonnet-4-20250514', 'ap-northeast-1')).toBe('apac.anthropic.claude-sonnet-4-20250514-v1:0');
    expect(bedrockModelId('claude-opus-4-1-20250805', 'us-gov-west-1')).toBe('us-gov.anthropic.claude-opus-4-1-20250805-v1:0');
    // No profile geography: the plain id (Bedrock then says whether the region serves it).
    expect(bedrockModelId('claude-sonnet-4-20250514', 'sa-east-1')).toBe('anthropic.claude-sonnet-4-20250514-v1:0');
    expect(profileGeography('ca-central-1')).toBe('');
  });

  it('uses Bedrock ids, profiles and ARNs as they are', () => {
    for (const id of [
      'anthropic.claude-3-5-haiku-20241022-v1:0',
      'eu.anthropic.claude-3-7-sonnet-20250219-v1:0',
      'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3',
    ]) {
      expect(bedrockModelId(id, 'us-east-1')).toBe(id);
    }
  });
});

describe('Bedrock calls', () => {
  it('addresses the regional runtime, or the channel’s base URL, with the model id escaped', () => {
    expect(invokeUrl(channel(), 'claude-3-5-sonnet-20240620', false)).toBe(
      'https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/invoke',
    );
    expect(invokeUrl(channel({ base_url: 'http://127.0.0.1:9/' }), 'claude-sonnet-4-20250514', true)).toBe(
      'http://127.0.0.1:9/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/invoke-with-response-stream',
    );
    expect(bedrock.target(channel(), 'chat.completions', 'claude-3-haiku-20240307', true).url).toContain(
      '/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke-with-response-stream',
    );
  });

  it('takes the Claude body without model and stream, with Bedrock’s version and the beta header as a list', () => {
    const body = JSON.parse(
      bedrockBody(
        { model: 'claude-sonnet-4-20250514', stream: true, max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] },
        'prompt-caching-2024-07-31, token-efficient-tools-2025-02-19',
      ),
    );
    expect(body).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Hi' }],
      anthropic_beta: ['prompt-caching-2024-07-31', 'token-efficient-tools-2025-02-19'],
    });
    expect(JSON.parse(bedrockBody({ model: 'm', max_tokens: 1, messages: [] }, undefined))).not.toHaveProperty('anthropic_beta');
  });

  it('converts an OpenAI chat request into a signed InvokeModel call', async () => {
    const plan = await bedrock.chat!.request(
      channel(),
      {
        model: 'claude-3-5-sonnet-20240620',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hi' },
        ],
        max_tokens: 32,
      },
      false,
      {
        claude: { defaultMaxTokens: {}, thinkingAdapterEnabled: false, thinkingBudgetPercentage: 0.8, modelHeaders: {} },
        gemini: {} as never,
      },
    );
    expect(plan.target.url).toBe(
      'https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/invoke',
    );
    expect(plan.target.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
    expect(JSON.parse(String(plan.body))).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      system: 'Be brief.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      max_tokens: 32,
    });
  });

  it('fails a call on a malformed key before anything is sent', async () => {
    await expect(
      bedrock.prepare!({
        target: { url: 'http://x/model/m/invoke', headers: {} },
        body: '{}',
        channel: channel({ key: 'only-one-part' }),
        endpoint: 'chat.completions',
        model: 'm',
        stream: false,
      }),
    ).rejects.toThrow('AWS 密钥格式应为 AccessKeyId|SecretAccessKey|Region');
  });
});

/** SigV4 computed from its specification with node:crypto alone, to check the signer's output independently. */
function referenceSignature(opts: {
  method: string;
  host: string;
  path: string;
  body: string;
  date: string;
  region: string;
  secret: string;
}): string {
  const hash = (s: string) => createHash('sha256').update(s).digest('hex');
  const hmac = (key: string | Buffer, s: string) => createHmac('sha256', key).update(s).digest();
  const canonicalPath = opts.path
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
  const payloadHash = hash(opts.body);
  const canonicalRequest = [
    opts.method,
    canonicalPath,
    '',
    `host:${opts.host}`,
    `x-amz-content-sha256:${payloadHash}`,
    `x-amz-date:${opts.date}`,
    '',
    'host;x-amz-content-sha256;x-amz-date',
    payloadHash,
  ].join('\n');
  const day = opts.date.slice(0, 8);
  const scope = `${day}/${opts.region}/bedrock/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', opts.date, scope, hash(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${opts.secret}`, day), opts.region), 'bedrock'), 'aws4_request');
  return createHmac('sha256', key).update(toSign).digest('hex');
}

describe('SigV4 signing', () => {
  it('matches the algorithm as specified (double-escaped path, signed host and x-amz headers)', async () => {
    const url = 'https://bedrock-runtime.eu-west-1.amazonaws.com/model/eu.anthropic.claude-3-7-sonnet-20250219-v1%3A0/invoke';
    const body = '{"anthropic_version":"bedrock-2023-05-31","max_tokens":8,"messages":[{"role":"user","content":"Hi"}]}';
    const key = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', region: 'eu-west-1' };
    const headers = await signBedrockRequest(url, body, key, new Date(Date.UTC(2025, 0, 2, 3, 4, 5)));
    expect(headers['x-amz-date']).toBe('20250102T030405Z');
    expect(headers['x-amz-content-sha256']).toBe(createHash('sha256').update(body).digest('hex'));
    expect(headers).not.toHaveProperty('host');
    const signature = referenceSignature({
      method: 'POST',
      host: 'bedrock-runtime.eu-west-1.amazonaws.com',
      path: '/model/eu.anthropic.claude-3-7-sonnet-20250219-v1%3A0/invoke',
      body,
      date: '20250102T030405Z',
      region: 'eu-west-1',
      secret: key.secretAccessKey,
    });
    expect(headers.authorization).toBe(
      `AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20250102/eu-west-1/bedrock/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=${signature}`,
    );
  });

  it('signs the host with its port when the base URL has one', async () => {
    const key = { accessKeyId: 'AK', secretAccessKey: 'SK', region: 'us-east-1' };
    const headers = await signBedrockRequest('http://127.0.0.1:4567/model/m/invoke', '{}', key, new Date(Date.UTC(2025, 5, 1)));
    const signature = referenceSignature({
      method: 'POST',
      host: '127.0.0.1:4567',
      path: '/model/m/invoke',
      body: '{}',
      date: '20250601T000000Z',
      region: 'us-east-1',
      secret: 'SK',
    });
    expect(headers.authorization).toContain(`Signature=${signature}`);
  });
});

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const str = (value: string) => ({ type: 'string' as const, value });

function chunkMessage(data: string): Uint8Array {
  const headers: MessageHeaders = {
    ':event-type': str('chunk'),
    ':content-type': str('application/json'),
    ':message-type': str('event'),
  };
  return codec.encode({ headers, body: fromUtf8(JSON.stringify({ bytes: Buffer.from(data).toString('base64'), p: 'abc' })) });
}

function exceptionMessage(type: string, message: string): Uint8Array {
  const headers: MessageHeaders = {
    ':message-type': str('exception'),
    ':exception-type': str(type),
    ':content-type': str('application/json'),
  };
  return codec.encode({ headers, body: fromUtf8(JSON.stringify({ message })) });
}

/** Claude SSE fixture → its events. */
function fixtureEvents(name: string): SseEvent[] {
  return fixture(name)
    .split('\n\n')
    .filter((b) => b.trim() !== '')
    .map((b) => ({ event: /^event: (.+)$/m.exec(b)![1]!, data: /^data: (.+)$/m.exec(b)![1]! }));
}

function decodeInSlices(bytes: Uint8Array, slice: number): SseEvent[] {
  const decoder = createBedrockEventStreamDecoder();
  const out: SseEvent[] = [];
  for (let i = 0; i < bytes.length; i += slice) out.push(...decoder.push(bytes.subarray(i, i + slice)));
  return [...out, ...decoder.end()];
}

describe('AWS event-stream decoding', () => {
  const events = fixtureEvents('stream-text.chunks.txt');
  const bytes = Buffer.concat(events.map((e) => chunkMessage(e.data)));

  it('turns chunk messages back into Claude’s events, however the bytes are sliced', () => {
    for (const slice of [1, 7, 64, bytes.length]) expect(decodeInSlices(bytes, slice)).toEqual(events);
  });

  it('yields text and usage through the Claude parser', () => {
    const parser = createClaudeStreamParser();
    const parsed = decodeInSlices(bytes, 33).flatMap((e) => parser.push(e));
    expect(
      parsed
        .filter((e) => e.type === 'text')
        .map((e) => (e as { text: string }).text)
        .join(''),
    ).toBe('The sky looks blue because air scatters short wavelengths of sunlight the most.');
    expect(parser.usage()).toMatchObject({ promptTokens: 21, completionTokens: 19 });
  });

  it('turns an exception message into Claude’s error event', () => {
    const stream = Buffer.concat([
      chunkMessage(events[0]!.data),
      exceptionMessage('throttlingException', 'Too many requests, please wait.'),
    ]);
    const decoded = decodeInSlices(stream, 10);
    expect(decoded[1]).toEqual({
      event: 'error',
      data: JSON.stringify({ type: 'error', error: { type: 'throttlingException', message: 'Too many requests, please wait.' } }),
    });
    const parser = createClaudeStreamParser();
    expect(decoded.flatMap((e) => parser.push(e)).at(-1)).toEqual({
      type: 'error',
      message: 'throttlingException: Too many requests, please wait.',
    });
  });

  it('refuses a corrupted message and a stream cut inside a message', () => {
    const corrupted = Buffer.from(chunkMessage(events[2]!.data));
    corrupted[corrupted.length - 10]! ^= 0xff;
    expect(() => createBedrockEventStreamDecoder().push(corrupted)).toThrow();
    const decoder = createBedrockEventStreamDecoder();
    decoder.push(bytes.subarray(0, 40));
    expect(() => decoder.end()).toThrow('AWS event stream ended inside a message');
  });

  it('says which content type is a stream', () => {
    expect(bedrock.isStream!('application/vnd.amazon.eventstream')).toBe(true);
    expect(bedrock.isStream!('application/json')).toBe(false);
  });
});

describe('Bedrock errors', () => {
  it('reads Bedrock’s message, Claude’s error shape and plain text', () => {
    expect(bedrockErrorMessage(fixture('error-validation.json'), 400)).toBe('The provided model identifier is invalid.');
    expect(bedrockErrorMessage('{"Message":"User: arn:aws:iam::1:user/x is not authorized"}', 403)).toBe(
      'User: arn:aws:iam::1:user/x is not authorized',
    );
    expect(bedrockErrorMessage('{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', 529)).toBe(
      'Overloaded',
    );
    expect(bedrockErrorMessage('Service Unavailable', 503)).toBe('Service Unavailable');
  });
});
