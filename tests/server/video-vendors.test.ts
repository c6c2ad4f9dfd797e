import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { must } from '../helpers/gateway.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import {
  startHailuoStandIn,
  startKlingStandIn,
  startSeedanceStandIn,
  VIDEO_BYTES,
  type VideoStandIn,
} from '../helpers/upstreams/video.js';
import { balancesOf, callRelay, limitedToken, pollerOnDemand, userLogs } from '../helpers/task-relay.js';
import type { TaskPoller } from '../../server/tasks/poller.js';

// Kling, Seedance and Hailuo behind the OpenAI Videos API: each vendor's submission in its own wire
// format, polled to completion, settled on the seconds it reports, its file streamed to the owner,
// and its refusals charging nothing.

const QPU = 500_000;
const PRICES = { 'kling-v2-1': 0.02, 'doubao-seedance-1-0-pro-250528': 0.015, 'MiniMax-Hailuo-02': 0.025 };
const quota = (usd: number) => Math.round(usd * QPU);

interface Vendor {
  name: string;
  start: () => Promise<VideoStandIn>;
  type: number;
  model: string;
}

const VENDORS: Vendor[] = [
  { name: 'Kling', start: () => startKlingStandIn(), type: 50, model: 'kling-v2-1' },
  { name: 'Seedance', start: () => startSeedanceStandIn(), type: 54, model: 'doubao-seedance-1-0-pro-250528' },
  { name: 'Hailuo', start: () => startHailuoStandIn(), type: 35, model: 'MiniMax-Hailuo-02' },
];

await forEachDatabase('video vendors', (kind) => {
  let f: RelayFixture;
  let poller: TaskPoller;
  let key: string;
  let tokenId: number;
  const ups = new Map<string, VideoStandIn>();

  const call = (path: string, body?: unknown) => callRelay(f, path, body, { authorization: `Bearer ${key}` });
  const balances = () => balancesOf(f, tokenId);

  beforeAll(async () => {
    f = await startRelayFixture(kind);
    poller = await pollerOnDemand(f.tg.gateway.ctx);
    must(await f.root.put('/api/option/', { key: 'ModelSecondPrice', value: JSON.stringify(PRICES) }), 'prices');
    for (const v of VENDORS) {
      const up = await v.start();
      ups.set(v.name, up);
      await f.addChannel({ type: v.type, name: v.name, key: up.key, base_url: up.url, models: v.model });
    }
    ({ id: tokenId, key } = await limitedToken(f));
  });
  afterAll(async () => {
    await poller?.stop();
    await f?.close();
    for (const up of ups.values()) await up.close();
  });

  for (const v of VENDORS) {
    describe(v.name, () => {
      it('submit → poll → content, settled on the seconds made', async () => {
        const up = ups.get(v.name)!;
        const before = await balances();
        const png = `data:image/png;base64,${Buffer.from([9, 8, 7]).toString('base64')}`;
        const res = await call('/v1/videos', {
          model: v.model,
          prompt: 'a lighthouse made-6',
          seconds: 10,
          size: '1280x720',
          input_reference: png,
        });
        expect(res.status).toBe(200);
        const id = res.body.id as string;
        expect((await balances()).user).toBe(before.user - quota(PRICES[v.model as keyof typeof PRICES] * 10));
        const sent = up.requests.at(-1)!;
        if (v.name === 'Kling') {
          expect(sent.url).toBe('/v1/videos/image2video');
          expect(sent.body).toEqual({
            model_name: v.model,
            prompt: 'a lighthouse made-6',
            duration: '10',
            aspect_ratio: '16:9',
            mode: 'std',
            image: 'CQgH',
          });
          const [h, p] = String(sent.headers.authorization).slice(7).split('.');
          expect(JSON.parse(Buffer.from(h!, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
          expect(JSON.parse(Buffer.from(p!, 'base64url').toString())).toMatchObject({ iss: 'kling-ak' });
        } else if (v.name === 'Seedance') {
          expect(sent.url).toBe('/api/v3/contents/generations/tasks');
          expect(sent.body).toEqual({
            model: v.model,
            content: [
              { type: 'text', text: 'a lighthouse made-6 --duration 10 --resolution 720p --ratio 16:9' },
              { type: 'image_url', image_url: { url: png } },
            ],
          });
        } else {
          expect(sent.url).toBe('/v1/video_generation');
          expect(sent.body).toEqual({
            model: v.model,
            prompt: 'a lighthouse made-6',
            duration: 10,
            resolution: '768P',
            first_frame_image: png,
          });
        }

        expect((await call(`/v1/videos/${id}`)).body).toMatchObject({ status: 'in_progress' });
        await poller.pollOnce();
        const done = await call(`/v1/videos/${id}`);
        expect(done.body.status).toBe('completed');
        // Kling and Seedance report the seconds made; Hailuo does not, so the asked ones stand.
        const made = v.name === 'Hailuo' ? 10 : 6;
        expect(done.body.seconds).toBe(String(made));
        const price = PRICES[v.model as keyof typeof PRICES];
        expect(await balances()).toEqual({ user: before.user - quota(price * made), token: before.token - quota(price * made) });
        if (made !== 10) {
          const refund = (await userLogs(f, 6)).find((l) => JSON.parse(l.other!).task_id === id)!;
          expect(refund.quota).toBe(quota(price * 10) - quota(price * 6));
        }

        const file = await fetch(`${f.tg.url}/v1/videos/${id}/content`, { headers: { authorization: `Bearer ${key}` } });
        expect(file.status).toBe(200);
        expect(Buffer.from(await file.arrayBuffer()).equals(VIDEO_BYTES)).toBe(true);
        const download = up.requests.at(-1)!;
        expect(download.headers.authorization).toBeUndefined();
        expect(download.url).not.toContain(up.key);
      });

      it('a refusal charges nothing', async () => {
        const before = await balances();
        const res = await call('/v1/videos', { model: v.model, prompt: 'rejected words', seconds: 5 });
        expect(res.status).toBe(400);
        expect(await balances()).toEqual(before);
      });
    });
  }
});
