/**
 * Tencent hunyuan: the TC3-HMAC-SHA256 signer against the worked example of Tencent's "Signature
 * v3" document, the signed call, and the converters replayed from tests/fixtures/providers/tencent/.
 */
import { readFileSync } from 'node:fs';
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signTc3, tc3Date } from '../../../server/relay/providers/tencent/tc3.js';
import { splitTencentKey, tencentCall } from '../../../server/relay/providers/tencent/index.js';
import {
  convertTencentResponse,
  convertToTencentRequest,
  createTencentStreamParser,
  tencentErrorOf,
  tencentErrorStatus,
} from '../../../server/relay/providers/tencent/convert.js';
import { SseParser } from '../../../server/relay/wire/sse.js';

const dir = new URL('../../fixtures/providers/tencent/', import.meta.url);
const text = (name: string) => readFileSync(new URL(name, dir), 'utf8');

describe('TC3-HMAC-SHA256', () => {
  it("reproduces the signature of Tencent's worked example (DescribeInstances, 1551113065)", () => {
    const signed = signTc3({
      secretId: 'AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE',
      secretKey: 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLE',
      service: 'cvm',
      host: 'cvm.tencentcloudapi.com',
      contentType: 'application/json; charset=utf-8',
      payload: '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}',
      timestamp: 1551113065,
    });
    expect(signed.signature).toBe('72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168');
    expect(signed.authorization).toBe(
      'TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE/2019-02-25/cvm/tc3_request, SignedHeaders=content-type;host, Signature=72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168',
    );
  });

  it('takes the credential date in UTC', () => {
    // 2019-02-26 00:44:25 in UTC+8 is still the 25th in UTC.
    expect(tc3Date(1551113065)).toBe('2019-02-25');
  });
});

describe('Tencent signed call', () => {
  it('splits `appid|secretId|secretKey` keys', () => {
    expect(splitTencentKey('1300000000|AKIDx|skey')).toEqual({ appId: '1300000000', secretId: 'AKIDx', secretKey: 'skey' });
    expect(splitTencentKey('AKIDx|skey')).toBeNull();
  });

  it('sends ChatCompletions 2023-09-01 to `/`, signed over the host with its port and the exact body', () => {
    const payload = JSON.stringify({ Model: 'hunyuan-lite', Messages: [{ Role: 'user', Content: 'hi' }], Stream: false });
    const call = tencentCall(
      { key: '1|AKIDx|skey', base_url: 'http://127.0.0.1:8123', other: null, openai_organization: null },
      payload,
      1716185530,
    );
    expect(call.target.url).toBe('http://127.0.0.1:8123/');
    expect(call.body).toBe(payload);
    expect(call.target.headers).toMatchObject({
      'x-tc-action': 'ChatCompletions',
      'x-tc-version': '2023-09-01',
      'x-tc-timestamp': '1716185530',
    });
    // Recomputed independently, step by step as the document describes.
    const sha = (s: string) => createHash('sha256').update(s).digest('hex');
    const canonical = `POST\n/\n\ncontent-type:application/json\nhost:127.0.0.1:8123\n\ncontent-type;host\n${sha(payload)}`;
    const toSign = `TC3-HMAC-SHA256\n1716185530\n2024-05-20/hunyuan/tc3_request\n${sha(canonical)}`;
    const h = (k: string | Buffer, s: string) => createHmac('sha256', k).update(s).digest();
    const signature = createHmac('sha256', h(h(h('TC3skey', '2024-05-20'), 'hunyuan'), 'tc3_request'))
      .update(toSign)
      .digest('hex');
    expect(call.target.headers.authorization).toBe(
      `TC3-HMAC-SHA256 Credential=AKIDx/2024-05-20/hunyuan/tc3_request, SignedHeaders=content-type;host, Signature=${signature}`,
    );
  });

  it('defaults to hunyuan.tencentcloudapi.com', () => {
    const call = tencentCall({ key: '1|a|b', base_url: null, other: null, openai_organization: null }, '{}', 1);
    expect(call.target.url).toBe('https://hunyuan.tencentcloudapi.com/');
  });
});

describe('Tencent conversion', () => {
  it('builds Messages with the system prompt first and alternating turns', () => {
    expect(
      convertToTencentRequest(
        {
          model: 'hunyuan-pro',
          messages: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'Hi' },
            { role: 'assistant', content: 'Hello' },
            { role: 'user', content: 'Again' },
          ],
          temperature: 0.5,
          top_p: 0.9,
        },
        true,
      ),
    ).toEqual({
      Model: 'hunyuan-pro',
      Messages: [
        { Role: 'system', Content: 'Be brief.' },
        { Role: 'user', Content: 'Hi' },
        { Role: 'assistant', Content: 'Hello' },
        { Role: 'user', Content: 'Again' },
      ],
      Stream: true,
      Temperature: 0.5,
      TopP: 0.9,
    });
  });

  it('converts a whole answer with its usage', () => {
    const { completion, usage } = convertTencentResponse(JSON.parse(text('chat.json')), 'hunyuan-lite');
    expect(completion).toMatchObject({
      id: 'e6a1d2b9-2a6b-4b44-9bb5-3e1d0b6f2a11',
      created: 1716185530,
      model: 'hunyuan-lite',
      choices: [{ message: { role: 'assistant', content: '你好！有什么我可以帮你的吗？' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 4, completion_tokens: 9, total_tokens: 13 },
    });
    expect(usage).toEqual({ promptTokens: 4, completionTokens: 9 });
  });

  it('streams Choices[].Delta and the last usage', () => {
    const parser = new SseParser();
    const stream = createTencentStreamParser('hunyuan-lite');
    const events = [...parser.push(new TextEncoder().encode(text('stream.chunks.txt'))), ...parser.end()].flatMap((e) =>
      stream.push(e),
    );
    expect(events[0]).toMatchObject({ type: 'start', id: '0c8fd4a3-7f1c-4f34-8d1e-2b9a1cf4e5d7' });
    expect(events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('')).toBe('你好！有什么可以帮你的吗？');
    expect(events.filter((e) => e.type === 'finish')).toEqual([{ type: 'finish', index: 0, reason: 'stop' }]);
    expect(events.flatMap((e) => (e.type === 'usage' ? [e.usage] : [])).at(-1)).toEqual({ promptTokens: 4, completionTokens: 9 });
    const moderated = createTencentStreamParser('m').push({
      event: 'message',
      data: JSON.stringify({ Choices: [{ Delta: { Content: '' }, FinishReason: 'sensitive' }] }),
    });
    expect(moderated.at(-1)).toEqual({ type: 'finish', index: 0, reason: 'content_filter' });
  });

  it('reads errors, in answers and in streams, and maps their codes to statuses', () => {
    expect(tencentErrorOf(JSON.parse(text('error-signature.json')))).toMatchObject({ code: 'AuthFailure.SignatureFailure' });
    expect(tencentErrorOf({ ErrorMsg: { Msg: 'engine busy', Code: 2001 } })).toEqual({ code: '2001', message: 'engine busy' });
    expect(tencentErrorOf(JSON.parse(text('chat.json')))).toBeNull();
    expect(tencentErrorStatus('AuthFailure.SignatureFailure')).toBe(401);
    expect(tencentErrorStatus('ResourceInsufficient.ChargeResourceExhaust')).toBe(403);
    expect(tencentErrorStatus('LimitExceeded')).toBe(429);
    expect(tencentErrorStatus('RequestLimitExceeded')).toBe(429);
    expect(tencentErrorStatus('InvalidParameterValue.Model')).toBe(400);
    expect(tencentErrorStatus('InternalError')).toBe(500);
  });
});
