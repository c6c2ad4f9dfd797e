/**
 * Image models billed by their token usage: Gemini's image models behind OpenAI's
 * /v1/images/generations (and Gemini's own generateContent passed through), gpt-image-1 edits as
 * multipart to an OpenAI channel. The stand-ins speak each provider's documented wire format.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { listenLocally, sendJson } from '../helpers/upstreams/stand-in-server.js';
import type { DbName } from '../helpers/databases.js';
import { startVertexStandIn, type VertexStandIn } from '../helpers/upstreams/vertex.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const IMAGE_B64 = PNG.toString('base64');

/** Gemini's documented generateContent answer for an image model: the image as inlineData, usage by modality. */
const GEMINI_IMAGE_ANSWER = {
  candidates: [
    {
      content: {
        role: 'model',
        parts: [{ text: 'A red fox in fresh snow.' }, { inlineData: { mimeType: 'image/png', data: IMAGE_B64 } }],
      },
      finishReason: 'STOP',
      index: 0,
    },
  ],
  usageMetadata: {
    promptTokenCount: 12,
    candidatesTokenCount: 1290,
    totalTokenCount: 1302,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: 12 }],
    candidatesTokensDetails: [{ modality: 'IMAGE', tokenCount: 1290 }],
  },
  modelVersion: 'gemini-2.5-flash-image',
};
const GEMINI_BLOCKED = {
  promptFeedback: { blockReason: 'PROHIBITED_CONTENT' },
  usageMetadata: { promptTokenCount: 12, totalTokenCount: 12 },
};
/** OpenAI's documented images answer for gpt-image-1, with its usage. */
const OPENAI_IMAGE_ANSWER = {
  created: 1_760_000_000,
  data: [{ b64_json: IMAGE_B64 }],
  usage: {
    input_tokens: 50,
    output_tokens: 4160,
    total_tokens: 4210,
    input_tokens_details: { text_tokens: 10, image_tokens: 40 },
  },
};
// gemini-2.5-flash-image built in: ratio 0.15, completion ratio 100 → (12 + 1290 × 100) × 0.15 = 19351.8 → 19352
const GEMINI_QUOTA = 19352;
// gpt-image-1 built in: ratio 2.5, completion ratio 8 → (50 + 4160 × 8) × 2.5 = 83325
const OPENAI_QUOTA = 83325;

interface Seen {
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

async function startStandIns() {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url ?? '';
      seen.push({ url, headers: req.headers, body: Buffer.concat(chunks) });
      if (url.includes('gemini-blocked-image:generateContent')) return sendJson(res, 200, GEMINI_BLOCKED);
      if (url.includes(':generateContent')) return sendJson(res, 200, GEMINI_IMAGE_ANSWER);
      if (url.endsWith('/images/edits') || url.endsWith('/images/generations')) return sendJson(res, 200, OPENAI_IMAGE_ANSWER);
      sendJson(res, 404, { error: { message: 'not found' } });
    });
  });
  return { seen, ...(await listenLocally(server)) };
}

async function setUp(kind: DbName) {
  const f = await startRelayFixture(kind);
  const upstream = await startStandIns();
  // The image models' built-in prices; only the stand-in's blocking model needs one.
  const ratios = JSON.parse(f.tg.gateway.ctx.options.raw('ModelRatio'));
  await f.root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify({ ...ratios, 'gemini-blocked-image': 0.15 }) });
  await f.addChannel({
    type: 24,
    name: 'gemini',
    key: 'AIza-upstream',
    base_url: upstream.url,
    models: 'gemini-2.5-flash-image,gemini-blocked-image',
  });
  await f.addChannel({ type: 1, name: 'images', key: 'sk-images', base_url: upstream.url, models: 'gpt-image-1' });
  return { f, upstream };
}

async function quotaOf(f: RelayFixture): Promise<number> {
  await f.flush();
  const row = await f.tg.gateway.ctx.db.selectFrom('users').select('quota').where('id', '=', f.userId).executeTakeFirstOrThrow();
  return row.quota;
}

function post(f: RelayFixture, path: string, body: unknown) {
  return fetch(`${f.tg.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${f.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

function editForm(fields: Record<string, string>, files: Array<[string, Blob, string]>): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [name, blob, filename] of files) form.append(name, blob, filename);
  return form;
}

const png = () => new Blob([PNG], { type: 'image/png' });

function edit(f: RelayFixture, form: FormData) {
  return fetch(`${f.tg.url}/v1/images/edits`, { method: 'POST', headers: { authorization: `Bearer ${f.key}` }, body: form });
}

describe('image models billed by their usage (SQLite)', () => {
  let f: RelayFixture;
  let upstream: Awaited<ReturnType<typeof startStandIns>>;
  beforeAll(async () => {
    ({ f, upstream } = await setUp('sqlite'));
  });
  afterAll(async () => {
    await f?.close();
    await upstream?.close();
  });

  it('serves a Gemini image model on /v1/images/generations, converted both ways', async () => {
    const before = await quotaOf(f);
    const res = await post(f, '/v1/images/generations', {
      model: 'gemini-2.5-flash-image',
      prompt: 'a fox in the snow',
      size: '1792x1024',
    });
    expect(res.status).toBe(200);
    const answer = await res.json();
    expect(answer.data).toEqual([{ b64_json: IMAGE_B64, revised_prompt: 'A red fox in fresh snow.' }]);
    expect(answer.usage).toEqual({
      input_tokens: 12,
      output_tokens: 1290,
      total_tokens: 1302,
      input_tokens_details: { text_tokens: 12, image_tokens: 0 },
      output_tokens_details: { image_tokens: 1290 },
    });
    const call = upstream.seen.at(-1)!;
    expect(call.url).toBe('/v1beta/models/gemini-2.5-flash-image:generateContent');
    expect(call.headers['x-goog-api-key']).toBe('AIza-upstream');
    expect(JSON.parse(call.body.toString())).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'a fox in the snow' }] }],
      generationConfig: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '16:9' } },
    });
    const log = await f.lastLog();
    expect(log.model_name).toBe('gemini-2.5-flash-image');
    expect([log.prompt_tokens, log.completion_tokens, log.quota]).toEqual([12, 1290, GEMINI_QUOTA]);
    expect(before - (await quotaOf(f))).toBe(GEMINI_QUOTA);
  });

  it('leaves the aspect ratio to the model without a size, and refuses what Gemini cannot make', async () => {
    const ok = await post(f, '/v1/images/generations', { model: 'gemini-2.5-flash-image', prompt: 'a fox', size: 'auto' });
    expect(ok.status).toBe(200);
    expect(JSON.parse(upstream.seen.at(-1)!.body.toString()).generationConfig).toEqual({ responseModalities: ['IMAGE'] });

    const before = await quotaOf(f);
    const calls = upstream.seen.length;
    for (const [body, message] of [
      [{ size: '1000x333' }, /no Gemini aspect ratio/],
      [{ n: 2 }, /n must be 1/],
      [{ response_format: 'url' }, /b64_json/],
    ] as const) {
      const res = await post(f, '/v1/images/generations', { model: 'gemini-2.5-flash-image', prompt: 'a fox', ...body });
      expect(res.status).toBe(400);
      expect((await res.json()).error.message).toMatch(message);
    }
    const missing = await post(f, '/v1/images/generations', { model: 'gemini-2.5-flash-image' });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.type).toBe('invalid_request_error');
    expect(upstream.seen.length).toBe(calls);
    expect(await quotaOf(f)).toBe(before);
  });

  it('answers a 400 and charges nothing when Gemini answers without an image', async () => {
    const before = await quotaOf(f);
    const res = await post(f, '/v1/images/generations', { model: 'gemini-blocked-image', prompt: 'something refused' });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toBe('Gemini answered without an image (PROHIBITED_CONTENT)');
    expect(upstream.seen.filter((s) => s.url.includes('gemini-blocked-image')).length).toBe(1);
    expect(await quotaOf(f)).toBe(before);
  });

  it('bills a Gemini-format call to an image model by its usageMetadata', async () => {
    const before = await quotaOf(f);
    const body = {
      contents: [{ role: 'user', parts: [{ text: 'a fox in the snow' }] }],
      generationConfig: { responseModalities: ['TEXT', 'IMAGE'] },
    };
    const res = await fetch(`${f.tg.url}/v1beta/models/gemini-2.5-flash-image:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': f.key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).candidates[0].content.parts[1].inlineData.data).toBe(IMAGE_B64);
    expect(JSON.parse(upstream.seen.at(-1)!.body.toString())).toEqual(body);
    const log = await f.lastLog();
    expect([log.prompt_tokens, log.completion_tokens, log.quota]).toEqual([12, 1290, GEMINI_QUOTA]);
    expect(before - (await quotaOf(f))).toBe(GEMINI_QUOTA);
  });

  it('relays a gpt-image-1 edit as multipart, bytes intact, billed by its usage', async () => {
    const before = await quotaOf(f);
    const mask = new Blob([PNG], { type: 'image/png' });
    const form = editForm({ model: 'gpt-image-1', prompt: 'add a hat', size: '1024x1024', quality: 'low', n: '1' }, [
      ['image[]', png(), 'a.png'],
      // Untyped bytes are judged by their PNG signature.
      ['image[]', new Blob([PNG], { type: 'application/octet-stream' }), 'b.png'],
      ['mask', mask, 'mask.png'],
    ]);
    const res = await edit(f, form);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(OPENAI_IMAGE_ANSWER);
    const call = upstream.seen.at(-1)!;
    expect(call.url).toBe('/v1/images/edits');
    expect(call.headers.authorization).toBe('Bearer sk-images');
    const sent = await new Response(new Uint8Array(call.body), {
      headers: { 'content-type': String(call.headers['content-type']) },
    }).formData();
    expect(sent.get('prompt')).toBe('add a hat');
    expect(sent.get('quality')).toBe('low');
    const images = sent.getAll('image[]') as File[];
    expect(images.map((i) => i.name)).toEqual(['a.png', 'b.png']);
    expect(Buffer.from(await images[0]!.arrayBuffer()).equals(PNG)).toBe(true);
    expect((sent.get('mask') as File).name).toBe('mask.png');
    const log = await f.lastLog();
    expect([log.prompt_tokens, log.completion_tokens, log.quota]).toEqual([50, 4160, OPENAI_QUOTA]);
    expect(before - (await quotaOf(f))).toBe(OPENAI_QUOTA);
  });

  it('edits through the official client too', async () => {
    const before = await quotaOf(f);
    const file = new File([PNG], 'cat.png', { type: 'image/png' });
    const answer = await f.openai().images.edit({ model: 'gpt-image-1', image: file, prompt: 'add a hat' });
    expect(answer.data?.[0]?.b64_json).toBe(IMAGE_B64);
    expect(before - (await quotaOf(f))).toBe(OPENAI_QUOTA);
  });

  it('bills gpt-image-1 generations by their usage', async () => {
    const before = await quotaOf(f);
    const res = await post(f, '/v1/images/generations', { model: 'gpt-image-1', prompt: 'a fox', quality: 'high' });
    expect(res.status).toBe(200);
    const log = await f.lastLog();
    expect([log.prompt_tokens, log.completion_tokens, log.quota]).toEqual([50, 4160, OPENAI_QUOTA]);
    expect(before - (await quotaOf(f))).toBe(OPENAI_QUOTA);
  });

  it('refuses a bad edit form with OpenAI 400s, charging nothing and calling no upstream', async () => {
    const before = await quotaOf(f);
    const calls = upstream.seen.length;
    const base = { model: 'gpt-image-1', prompt: 'add a hat' };
    const cases: Array<[FormData, RegExp]> = [
      [editForm({ model: 'gpt-image-1' }, [['image', png(), 'a.png']]), /prompt is required/],
      [editForm(base, []), /image is required/],
      [editForm({ ...base, image: 'https://example.com/a.png' }, []), /image must be a file/],
      [
        editForm(
          base,
          Array.from({ length: 17 }, (_, i) => ['image[]', png(), `${i}.png`] as [string, Blob, string]),
        ),
        /too many/,
      ],
      [editForm(base, [['image', new Blob(['%PDF-1.4'], { type: 'application/pdf' }), 'doc.pdf']]), /PNG, WebP or JPEG/],
      [editForm(base, [['image', new Blob(['%PDF-1.4'], { type: 'application/octet-stream' }), 'doc']]), /PNG, WebP or JPEG/],
      [
        editForm(base, [
          ['image', png(), 'a.png'],
          ['mask', new Blob([PNG], { type: 'image/jpeg' }), 'm.jpg'],
        ]),
        /mask must be a PNG/,
      ],
      [editForm({ ...base, n: '0' }, [['image', png(), 'a.png']]), /n must be/],
    ];
    for (const [form, message] of cases) {
      const res = await edit(f, form);
      expect(res.status).toBe(400);
      const { error } = await res.json();
      expect(error.type).toBe('invalid_request_error');
      expect(error.message).toMatch(message);
    }
    expect(upstream.seen.length).toBe(calls);
    expect(await quotaOf(f)).toBe(before);
  });
});

describe('image models billed by their usage (PostgreSQL)', () => {
  let f: RelayFixture;
  let upstream: Awaited<ReturnType<typeof startStandIns>>;
  beforeAll(async () => {
    ({ f, upstream } = await setUp('postgres'));
  });
  afterAll(async () => {
    await f?.close();
    await upstream?.close();
  });

  it('bills a Gemini image generation and a gpt-image-1 edit exactly', async () => {
    const before = await quotaOf(f);
    const generated = await post(f, '/v1/images/generations', {
      model: 'gemini-2.5-flash-image',
      prompt: 'a fox',
      size: '1024x1024',
    });
    expect(generated.status).toBe(200);
    expect((await f.lastLog()).quota).toBe(GEMINI_QUOTA);
    const edited = await edit(f, editForm({ model: 'gpt-image-1', prompt: 'add a hat' }, [['image', png(), 'a.png']]));
    expect(edited.status).toBe(200);
    expect((await f.lastLog()).quota).toBe(OPENAI_QUOTA);
    expect(before - (await quotaOf(f))).toBe(GEMINI_QUOTA + OPENAI_QUOTA);
  });
});

describe('Gemini image models on a Vertex AI channel', () => {
  let f: RelayFixture;
  let vertex: VertexStandIn;
  const privateUpstreams = process.env.ALLOW_PRIVATE_UPSTREAMS;
  const email = 'images@image-project.iam.gserviceaccount.com';
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

  beforeAll(async () => {
    // The service account's token endpoint is fetched through the SSRF-safe fetcher: here on loopback.
    process.env.ALLOW_PRIVATE_UPSTREAMS = 'true';
    f = await startRelayFixture('sqlite');
    vertex = await startVertexStandIn({
      project: 'image-project',
      accounts: { [email]: publicKey.export({ type: 'spki', format: 'pem' }).toString() },
    });
    const key = {
      type: 'service_account',
      project_id: 'image-project',
      private_key_id: 'k1',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: email,
      token_uri: vertex.tokenUri,
    };
    await f.addChannel({
      type: 41,
      name: 'vertex',
      base_url: vertex.url,
      key: JSON.stringify(key),
      models: 'gemini-2.5-flash-image',
    });
  });
  afterAll(async () => {
    if (privateUpstreams === undefined) delete process.env.ALLOW_PRIVATE_UPSTREAMS;
    else process.env.ALLOW_PRIVATE_UPSTREAMS = privateUpstreams;
    await f?.close();
    await vertex?.close();
  });

  it('converts to generateContent with a bearer token and bills the usageMetadata', async () => {
    const before = await quotaOf(f);
    const res = await post(f, '/v1/images/generations', { model: 'gemini-2.5-flash-image', prompt: 'a fox', size: '1024x1536' });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual([{ b64_json: IMAGE_B64 }]);
    const sent = vertex.requests.at(-1)!;
    expect([sent.publisher, sent.model, sent.action]).toEqual(['google', 'gemini-2.5-flash-image', 'generateContent']);
    expect(sent.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'a fox' }] }],
      generationConfig: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '2:3' } },
    });
    // (9 + 1290 × 100) × 0.15 = 19351.35 → 19351
    const log = await f.lastLog();
    expect([log.prompt_tokens, log.completion_tokens, log.quota]).toEqual([9, 1290, 19351]);
    expect(before - (await quotaOf(f))).toBe(19351);
  });
});
