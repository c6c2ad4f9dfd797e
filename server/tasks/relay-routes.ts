/**
 * The task relays: Midjourney-proxy (/mj/*) and Suno (/suno/*), each in its own error shape, and
 * the background poller of their unfinished tasks, started when the server is ready (master node
 * only) and stopped when it closes.
 */
import type { FastifyInstance } from 'fastify';
import midjourneyRoutes from './midjourney/routes.js';
import sunoRoutes from './suno/routes.js';
import { startGatewayPoller } from './poller.js';

export default async function routes(app: FastifyInstance): Promise<void> {
  await app.register(midjourneyRoutes);
  await app.register(sunoRoutes);
  let stop: (() => Promise<void>) | null = null;
  app.addHook('onReady', async () => {
    stop = startGatewayPoller(app.ctx);
  });
  app.addHook('onClose', async () => {
    await stop?.();
  });
}
