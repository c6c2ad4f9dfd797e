import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { must } from '../helpers/gateway.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { startVertexStandIn, type VertexStandIn } from '../helpers/upstreams/vertex.js';
import { VIDEO_BYTES } from '../helpers/upstreams/video.js';
import { balancesOf, callRelay, limitedToken, pollerOnDemand, userLogs } from '../helpers/task-relay.js';
import { expectTotalsMatchRows } from '../helpers/log-totals.js';
import { startTaskPoller, type TaskPoller } from '../../server/tasks/poller.js';
import { inlineBytes, withoutInline } from '../../server/tasks/video/inline-file.js';
import type { GatewayContext } from '../../server/context.js';

// Veo on Vertex AI channels: predictLongRunning under the channel's project and region with the
// service account's bearer token, fetchPredictOperation polled to completion, the video (inline
// base64 in the operation's JSON) decoded as it streams to its owner and never stored, a failed
// operation refunded once under concurrent pollers, and nothing of another user's video readable.

const QPU = 500_000;
const MODEL = 'veo-3.0-generate-001';
const PROJECT = 'veo-test-project';
const PRICE = 0.04;
const quota = (usd: number) => Math.round(usd * QPU);

async function* pieces(text: string, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < text.length; i += size) yield Buffer.from(text.slice(i, i + size), 'latin1');
}
async function collect(it: AsyncIterable<Buffer>): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const b of it) out.push(b);
  return Buffer.concat(out);
}

describe('inline files', () => {
  const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 7) % 256));
  // JSON may escape `/` as `\/`; the marker and the value are cut across pieces of every size.
  const escaped = bytes.toString('base64').replace(/\//g, '\\/');
  const answer = `{"name":"op","done":true,"response":{"videos":[{"bytesBase64Encoded" : "${escaped}","mimeType":"video/mp4"}]}}`;

  it('decodes the first value and drops every value, whatever the chunking', async () => {
    for (const size of [1, 3, 7, 64, 4096]) {
      expect((await collect(inlineBytes(pieces(answer, size), 'bytesBase64Encoded'))).equals(bytes)).toBe(true);
      const left = JSON.parse((await collect(withoutInline(pieces(answer, size), 'bytesBase64Encoded'))).toString());
      expect(left.response.videos[0]).toEqual({ bytesBase64Encoded: '', mimeType: 'video/mp4' });
    }
  });

  it('refuses an answer without the value', async () => {
    await expect(collect(inlineBytes(pieces('{"name":"op","done":true}', 5), 'bytesBase64Encoded'))).rejects.toThrow(
      'no inline file',
    );
  });
});

await forEachDatabase('video on Vertex AI', (kind) => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const email = `veo@${PROJECT}.iam.gserviceaccount.com`;
  let f: RelayFixture;
  let vertex: VertexStandIn;
  let ctx: GatewayContext;
  let poller: TaskPoller;
  let key: string;
  let tokenId: number;
  let otherKey: string;
  let channelId: number;

  const call = (path: string, body?: unknown, k: string = key) => callRelay(f, path, body, { authorization: `Bearer ${k}` });
  const balances = () => balancesOf(f, tokenId);
  const row = (id: string) => ctx.db.selectFrom('tasks').selectAll().where('task_id', '=', id).executeTakeFirstOrThrow();
  const content = (id: string, k: string = key) =>
    fetch(`${f.tg.url}/v1/videos/${id}/content`, { headers: { authorization: `Bearer ${k}` } });
  // The status alone, the body read to its end: an answer left unread holds the gateway's connection open past close().
  const contentStatus = async (id: string, k: string = key) => {
    const res = await content(id, k);
    await res.arrayBuffer();
    return res.status;
  };
  const submit = (prompt: string, seconds = 8) => call('/v1/videos', { model: MODEL, prompt, seconds, size: '1280x720' });

  beforeAll(async () => {
    // The token endpoint is the key's own URL, fetched through the SSRF-safe fetcher: here on loopback.
    process.env.ALLOW_PRIVATE_UPSTREAMS = 'true';
    vertex = await startVertexStandIn({
      project: PROJECT,
      accounts: { [email]: publicKey.export({ type: 'spki', format: 'pem' }).toString() },
    });
    f = await startRelayFixture(kind);
    ctx = f.tg.gateway.ctx;
    poller = await pollerOnDemand(ctx);
    must(await f.root.put('/api/option/', { key: 'ModelSecondPrice', value: JSON.stringify({ [MODEL]: PRICE }) }), 'prices');
    const account = {
      type: 'service_account',
      project_id: PROJECT,
      private_key_id: 'k1',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: email,
      token_uri: vertex.tokenUri,
    };
    channelId = await f.addChannel({
      type: 41,
      name: 'vertex-veo',
      key: JSON.stringify(account),
      base_url: vertex.url,
      other: JSON.stringify({ default: 'us-central1', [MODEL]: 'us-east4' }),
      models: MODEL,
    });
    ({ id: tokenId, key } = await limitedToken(f));
    const rootToken = must(
      await f.root.post('/api/token/', { name: 'root', remain_quota: 0, unlimited_quota: true, expired_time: -1 }),
      't',
    );
    otherKey = must(await f.root.post(`/api/token/${rootToken.id}/key`), 'key').key;
  });
  afterAll(async () => {
    await poller?.stop();
    await f?.close();
    await vertex?.close();
  });

  it('submit → poll → content: the inline video streamed to its owner, settled on the seconds asked', async () => {
    // Larger than a polled answer may be (8 MiB) once in base64: polling must read around it.
    const big = Buffer.concat([VIDEO_BYTES, VIDEO_BYTES]);
    vertex.veo.file = big;
    const before = await balances();
    const png = `data:image/png;base64,${Buffer.from([9, 8, 7]).toString('base64')}`;
    const res = await call('/v1/videos', {
      model: MODEL,
      prompt: 'a lighthouse',
      seconds: 8,
      size: '1920x1080',
      input_reference: png,
    });
    expect(res.status).toBe(200);
    const id = res.body.id as string;
    expect(await balances()).toEqual({ user: before.user - quota(PRICE * 8), token: before.token - quota(PRICE * 8) });
    const sent = vertex.requests.at(-1)!;
    expect(sent).toMatchObject({
      method: 'POST',
      project: PROJECT,
      region: 'us-east4',
      model: MODEL,
      action: 'predictLongRunning',
    });
    expect(sent.headers.authorization).toMatch(/^Bearer ya29\.c\.stand-in-/);
    expect(sent.body).toEqual({
      instances: [{ prompt: 'a lighthouse', image: { bytesBase64Encoded: 'CQgH', mimeType: 'image/png' } }],
      parameters: { durationSeconds: 8, aspectRatio: '16:9', resolution: '1080p', sampleCount: 1 },
    });
    const operation = [...vertex.veo.tasks.keys()].at(-1)!;

    expect((await call(`/v1/videos/${id}`)).body).toMatchObject({ status: 'in_progress', progress: 50 });
    const asked = vertex.requests.at(-1)!;
    expect(asked).toMatchObject({ action: 'fetchPredictOperation', region: 'us-east4', body: { operationName: operation } });
    await poller.pollOnce();
    const done = await call(`/v1/videos/${id}`);
    expect(done.body).toMatchObject({ status: 'completed', seconds: '8' });
    // Vertex reports no length: the seconds asked stand, and nothing is settled again.
    expect(await balances()).toEqual({ user: before.user - quota(PRICE * 8), token: before.token - quota(PRICE * 8) });
    const stored = await row(id);
    expect(stored.quota).toBe(quota(PRICE * 8));
    expect((stored.properties ?? '').length).toBeLessThan(2000);

    const file = await content(id);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('video/mp4');
    expect(file.headers.get('authorization')).toBeNull();
    expect(Buffer.from(await file.arrayBuffer()).equals(big)).toBe(true);
    expect(vertex.requests.at(-1)).toMatchObject({ action: 'fetchPredictOperation', body: { operationName: operation } });
    vertex.veo.file = VIDEO_BYTES;
    await expectTotalsMatchRows(ctx.db);
  });

  it('a failed operation is refunded exactly once, with three pollers at once', async () => {
    const before = await balances();
    const id = (await submit('this will-fail', 6)).body.id as string;
    await poller.pollOnce();
    vertex.veo.queryDelayMs = 150;
    const others = [startTaskPoller(ctx, { intervalMs: 0 }), startTaskPoller(ctx, { intervalMs: 0 })];
    const rounds = await Promise.all([poller.pollOnce(), ...others.map((p) => p.pollOnce())]);
    vertex.veo.queryDelayMs = 0;
    await Promise.all(others.map((p) => p.stop()));
    expect(rounds.reduce((n, r) => n + r.video.refunded, 0)).toBe(1);
    expect((await call(`/v1/videos/${id}`)).body).toMatchObject({
      status: 'failed',
      error: { message: 'Video generation failed.' },
    });
    expect(await balances()).toEqual(before);
    const refunds = (await userLogs(f, 6)).filter((l) => JSON.parse(l.other!).task_id === id);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ quota: quota(PRICE * 6), token_name: 'limited' });
    expect(await contentStatus(id)).not.toBe(200);
    await expectTotalsMatchRows(ctx.db);
  });

  it('a video withheld by the safety filters fails with their reason and is refunded', async () => {
    const before = await balances();
    const id = (await submit('filtered scene', 4)).body.id as string;
    await poller.pollOnce();
    await poller.pollOnce();
    expect((await call(`/v1/videos/${id}`)).body).toMatchObject({
      status: 'failed',
      error: { message: 'The video was withheld by the safety filters.' },
    });
    expect(await balances()).toEqual(before);
  });

  it("a refusal charges nothing; another user's video and content are 404", async () => {
    const before = await balances();
    expect((await submit('rejected words')).status).toBe(400);
    expect(await balances()).toEqual(before);

    const id = (await submit('mine')).body.id as string;
    await poller.pollOnce();
    await poller.pollOnce();
    expect((await call(`/v1/videos/${id}`)).body.status).toBe('completed');
    const calls = vertex.requests.length;
    expect((await call(`/v1/videos/${id}`, undefined, otherKey)).status).toBe(404);
    expect(await contentStatus(id, otherKey)).toBe(404);
    // The foreign request never reached the vendor.
    expect(vertex.requests.length).toBe(calls);
    expect(await contentStatus(id)).toBe(200);
    expect(channelId).toBeGreaterThan(0);
  });
});
