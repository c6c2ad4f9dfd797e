import type { FastifyRequest } from 'fastify';
import { request as httpRequest } from 'undici';
import { fail } from '../http/errors.js';
import { clientIp } from '../http/client-ip.js';

export const SITEVERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';
const TIMEOUT_MS = 10_000;

/** Asks Cloudflare whether a widget token is genuine; any transport or parse problem counts as no. */
export async function verifyTurnstile(
  token: string,
  secret: string,
  remoteIp: string,
  endpoint = SITEVERIFY_URL,
): Promise<boolean> {
  const form = new URLSearchParams({ secret, response: token });
  if (remoteIp && remoteIp !== 'unknown') form.set('remoteip', remoteIp);
  try {
    const res = await httpRequest(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    if (res.statusCode !== 200) {
      await res.body.dump();
      return false;
    }
    const answer = (await res.body.json()) as { success?: unknown };
    return answer.success === true;
  } catch {
    return false;
  }
}

/** preHandler: when the bot check is on, the call must carry a `turnstile` token Cloudflare accepts. */
export async function turnstileCheck(request: FastifyRequest): Promise<void> {
  const options = request.server.ctx.options;
  if (!options.bool('TurnstileCheckEnabled')) return;
  const query = request.query as { turnstile?: unknown } | undefined;
  const token = typeof query?.turnstile === 'string' ? query.turnstile.trim() : '';
  if (!token) throw fail('account.turnstile_missing');
  if (!(await verifyTurnstile(token, options.string('TurnstileSecretKey'), clientIp(request)))) {
    throw fail('account.turnstile_failed');
  }
}
