/**
 * The task relays: Midjourney-proxy (/mj/*), Suno (/suno/*) and videos (/v1/videos*), each in its own error shape, and
 * the background poller of their unfinished tasks, started when the server is ready (master node
 * only) and stopped when it closes.
 */
import type { FastifyInstance } from 'fastify';
import midjourneyRoutes from './midjourney/routes.js';
import sunoRoutes from './suno/routes.js';
import videoRoutes from './video/routes.js';
import { startGatewayPoller } from './poller.js';

export default async function routes(app: FastifyInstance): Promise<void> {
  await app.register(midjourneyRoutes);
  await app.register(sunoRoutes);
  await app.register(videoRoutes);
  let stop: (() => Promise<void>) | null = null;
  app.addHook('onReady', async () => {
    stop = startGatewayPoller(app.ctx);
  });
  app.addHook('onClose', async () => {
    await stop?.();
  });
}
