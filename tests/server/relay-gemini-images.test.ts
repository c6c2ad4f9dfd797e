/**
 * Images given by link to a Gemini channel: fetched through the SSRF-safe fetcher and sent inline,
 * or refused with the client's 400 when the link cannot be used (nothing sent upstream).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { startReplayServer, type ReplayServer } from '../helpers/upstreams/replay.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe('linked images for Gemini channels', () => {
  let f: RelayFixture;
  let gemini: ReplayServer;
  let images: Server;
  let imagesUrl: string;
  const before = process.env.ALLOW_PRIVATE_HOSTS;

  beforeAll(async () => {
    f = await startRelayFixture('sqlite');
    gemini = await startReplayServer('gemini', [{ path: /:generateContent$/, fixture: () => 'text.json' }]);
    images = createServer((req, res) => {
      if (req.url === '/cat.png') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      else if (req.url === '/page.html') res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>');
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    imagesUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
    const ratios = JSON.parse(f.tg.gateway.ctx.options.raw('ModelRatio'));
    await f.root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify({ ...ratios, 'gemini-2.5-flash': 0.15 }) });
    await f.addChannel({ type: 24, name: 'gemini', key: 'AIza-upstream', base_url: gemini.url, models: 'gemini-2.5-flash' });
  });
  afterAll(async () => {
    if (before === undefined) delete process.env.ALLOW_PRIVATE_HOSTS;
    else process.env.ALLOW_PRIVATE_HOSTS = before;
    delete process.env.ALLOW_PRIVATE_UPSTREAMS;
    await f?.close();
    await gemini?.close();
    await new Promise((resolve) => images?.close(resolve));
  });

  const ask = (url: string) =>
    f.openai().chat.completions.create({
      model: 'gemini-2.5-flash',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture?' },
            { type: 'image_url', image_url: { url } },
          ],
        },
      ],
    });

  it('fetches the image and sends it inline', async () => {
    process.env.ALLOW_PRIVATE_HOSTS = '127.0.0.1';
    const answer = await ask(`${imagesUrl}/cat.png`);
    expect(answer.choices[0]!.message.content).toContain('Paris');
    const parts = (gemini.requests.at(-1)!.body as { contents: Array<{ parts: unknown[] }> }).contents[0]!.parts;
    expect(parts).toContainEqual({ inlineData: { mimeType: 'image/png', data: PNG.toString('base64') } });
  });

  it('refuses links that are not images, do not answer, or lead to private addresses', async () => {
    const sent = gemini.requests.length;
    process.env.ALLOW_PRIVATE_HOSTS = '127.0.0.1';
    await expect(ask(`${imagesUrl}/page.html`)).rejects.toMatchObject({ status: 400 });
    await expect(ask(`${imagesUrl}/missing.png`)).rejects.toMatchObject({ status: 400 });
    delete process.env.ALLOW_PRIVATE_HOSTS;
    // A client's link is never a channel upstream: opening those does not open it.
    process.env.ALLOW_PRIVATE_UPSTREAMS = 'true';
    await expect(ask(`${imagesUrl}/cat.png`)).rejects.toMatchObject({ status: 400 });
    expect(gemini.requests.length).toBe(sent);
  });
});
