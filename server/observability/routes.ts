/**
 * Tracing's start and end with the gateway (only when an OTLP endpoint is configured: the
 * OpenTelemetry packages are loaded then and only then), and the body-log reader of the console:
 * GET /api/log/body/:id, the bodies kept for a log row, to admins and to the row's owner.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { currentUser, requireUser } from '../auth/guard.js';
import { ROLE_ADMIN } from '../auth/roles.js';
import { ok } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import { findLogRequest } from '../logs/list-repository.js';
import { findLogBody } from '../logs/bodies-repository.js';
import { LogBodyAnswer, LogIdParams } from '../logs/schemas.js';
import { setTracing } from './tracing.js';

export default async function observabilityRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;
  const otel = ctx.config.otel;
  if (otel) {
    const { createTracing } = await import('./otel.js');
    const tracing = await createTracing(otel);
    setTracing(ctx, tracing);
    // After the server stops taking calls: the last spans are sent before the process ends.
    app.addHook('onClose', async () => {
      await tracing.shutdown().catch((err: unknown) => ctx.log.warn({ err }, 'spans not sent at shutdown'));
    });
  }

  app.get(
    '/api/log/body/:id',
    { onRequest: requireUser, schema: { params: LogIdParams, response: { 200: LogBodyAnswer } } },
    async (request) => {
      const user = currentUser(request);
      const row = await findLogRequest(ctx.logDb, request.params.id);
      // Someone else's row answers exactly like a missing one.
      if (!row || (user.role < ROLE_ADMIN && row.userId !== user.id)) throw fail('log.not_found');
      const body = row.requestId ? await findLogBody(ctx.logDb, row.requestId) : undefined;
      if (!body || (user.role < ROLE_ADMIN && body.user_id !== user.id)) return ok(null);
      return ok({
        request_body: body.request_body,
        response_body: body.response_body,
        request_truncated: body.request_truncated === 1,
        response_truncated: body.response_truncated === 1,
        created_at: Number(body.created_at),
      });
    },
  );
}
