/**
 * `GET /api/task/video/{task_id}/content`: the console's player source. A `<video>` element sends
 * no `New-Api-User` header, so this read-only route takes the session cookie alone — safe because
 * that cookie is SameSite=Strict (no other site's page can make the browser send it). The owner
 * gets their video, an admin anyone's; everyone else a 404, like a video that does not exist.
 */
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../../context.js';
import { sessionHolder } from '../../auth/guard.js';
import { ROLE_ADMIN, USER_ENABLED } from '../../auth/roles.js';
import { unauthorized } from '../../http/errors.js';
import { taskErrors } from '../errors.js';
import { streamVideo } from './content.js';
import { findVideo } from './repository.js';

export default async function videoConsoleRoutes(app: FastifyInstance): Promise<void> {
  const ctx: GatewayContext = app.ctx;
  app.get('/api/task/video/:id/content', async (request, reply) => {
    const user = await sessionHolder(request);
    if (!user || user.status !== USER_ENABLED) throw unauthorized();
    const { id } = request.params as { id: string };
    const row = await findVideo(ctx.db, id, user.role >= ROLE_ADMIN ? null : user.id);
    if (!row) throw taskErrors.notExist();
    return streamVideo(ctx, row, reply);
  });
}
