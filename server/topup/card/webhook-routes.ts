/**
 * The card providers' webhooks: POST /api/stripe/webhook and POST /api/creem/webhook. Each reads
 * its body as the raw text that was signed, checks the signature before anything parses it, then
 * reads the event and applies it once (notices.ts). A refusal is logged without the body or any
 * secret, and answered 400 so the provider shows it; an order not yet known is answered 404, so
 * the provider delivers the event again later.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { nowSeconds } from '../../db/index.js';
import { verifyCreemSignature } from './creem.js';
import { creemEvent, stripeEvent, type ParsedEvent } from './events.js';
import { applyNotice, type CardMethod } from './notices.js';
import { verifyStripeSignature } from './stripe.js';

const WEBHOOK_BODY_LIMIT = 256 * 1024;

export default async function cardWebhookRoutes(base: FastifyInstance): Promise<void> {
  const ctx = base.ctx;
  const { options } = ctx;

  // Webhooks read their body as the raw text that was signed: nothing parses it before the check.
  await base.register(async (hooks) => {
    hooks.removeAllContentTypeParsers();
    hooks.addContentTypeParser('*', { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) =>
      done(null, body),
    );

    async function webhook(
      request: FastifyRequest,
      reply: FastifyReply,
      method: CardMethod,
      verified: (raw: string) => boolean,
      read: (raw: string) => ParsedEvent | null,
    ) {
      const raw = typeof request.body === 'string' ? request.body : '';
      if (!verified(raw)) {
        request.log.warn({ provider: method, bytes: raw.length }, 'payment webhook refused: bad or stale signature');
        return reply.code(400).send({ received: false, error: 'invalid signature' });
      }
      const parsed = read(raw);
      if (!parsed) {
        request.log.warn({ provider: method }, 'payment webhook refused: not an event');
        return reply.code(400).send({ received: false, error: 'invalid event' });
      }
      const answer = await applyNotice(ctx, request.log, method, parsed.event, parsed.notice);
      return reply.code(answer.status).send({ received: answer.status === 200, outcome: answer.outcome });
    }

    hooks.post('/api/stripe/webhook', async (request, reply) =>
      webhook(
        request,
        reply,
        'stripe',
        (raw) =>
          verifyStripeSignature(
            raw,
            headerText(request, 'stripe-signature'),
            options.string('StripeWebhookSecret'),
            nowSeconds(),
          ),
        (raw) => stripeEvent(raw, options.bool('StripePromotionCodesEnabled')),
      ),
    );
    hooks.post('/api/creem/webhook', async (request, reply) =>
      webhook(
        request,
        reply,
        'creem',
        (raw) => verifyCreemSignature(raw, headerText(request, 'creem-signature'), options.string('CreemWebhookSecret')),
        creemEvent,
      ),
    );
  });
}

function headerText(request: FastifyRequest, name: string): string {
  const value = request.headers[name];
  return typeof value === 'string' ? value : '';
}
