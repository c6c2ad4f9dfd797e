/**
 * One Suno submission (`POST /suno/submit/music|lyrics`): the price of `suno_music` or
 * `suno_lyrics` debited first, a Suno channel chosen by group and model (or the channel of the
 * task a continuation extends; server/tasks/submit-loop.ts), the body sent on with the channel's
 * Bearer key, and then either the stored task (platform `suno`) with its consume log, or the charge
 * given back.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../../context.js';
import { callerOf } from '../../relay/entry/identify-caller.js';
import { checkTextSensitive } from '../../relay/guards/sensitive-words.js';
import { reportUpstreamFailure } from '../../relay/call/report-outcome.js';
import { upstreamErrorMessage } from '../../relay/call/call-upstream.js';
import { charge, storedPayer } from '../billing.js';
import { SUNO_TYPES, baseUrl, isRecord, parseJson, retryable, str } from '../channel.js';
import { taskErrors } from '../errors.js';
import { submitToChannels, upstreamFailure } from '../submit-loop.js';
import { findOwnSunoTask, insertSunoTask } from './repository.js';

export type SunoAction = 'music' | 'lyrics';

export async function submitSuno(
  ctx: GatewayContext,
  request: FastifyRequest,
  reply: FastifyReply,
  action: SunoAction,
): Promise<FastifyReply> {
  const started = performance.now();
  const caller = callerOf(request);
  const body = request.body;
  if (!isRecord(body)) throw taskErrors.invalid('request body must be a JSON object');
  checkTextSensitive(
    ctx,
    ['prompt', 'gpt_description_prompt', 'title', 'tags']
      .map((key) => str(body[key]))
      .join('\n')
      .trim(),
  );
  // A continuation (`task_id` of an earlier song) must go to the channel that made that song.
  const originId = action === 'music' ? str(body.task_id).trim() : '';
  const origin = originId ? await findOwnSunoTask(ctx.db, caller.user.id, originId) : undefined;
  if (originId && !origin) throw taskErrors.notExist();
  const model = `suno_${action}`;
  const charged = await charge(ctx, reply, caller, model);

  return submitToChannels(ctx, {
    charged,
    types: SUNO_TYPES,
    origin,
    url: (channel) => `${baseUrl(channel)}/suno/submit/${action}`,
    body,
    started,
    clientIp: request.ip,
    answered: async (channel, answer, settle) => {
      const parsed = parseJson(answer.text);
      if (answer.status === 200 && isRecord(parsed) && parsed.code === 'success' && str(parsed.data) !== '') {
        const taskId = str(parsed.data);
        const now = Math.floor(Date.now() / 1000);
        await settle.keep(action.toUpperCase(), taskId, async (trx) => {
          await insertSunoTask(trx, {
            created_at: now,
            updated_at: now,
            task_id: taskId,
            user_id: caller.user.id,
            channel_id: channel.id,
            quota: charged.quota,
            action: action.toUpperCase(),
            status: 'SUBMITTED',
            submit_time: now,
            progress: '0%',
            properties: JSON.stringify({
              payer: storedPayer(charged),
              ...(typeof body.prompt === 'string' ? { input: body.prompt.slice(0, 2000) } : {}),
            }),
          });
        });
        return { result: reply.send({ code: 'success', message: '', data: taskId }) };
      }
      const message =
        isRecord(parsed) && typeof parsed.message === 'string' && parsed.message !== ''
          ? parsed.message
          : upstreamErrorMessage(answer.text, answer.status);
      if (!retryable(answer.status) && isRecord(parsed) && typeof parsed.code === 'string') {
        // The upstream answered and refused the task itself: its word goes back to the client.
        reportUpstreamFailure(ctx, channel, answer.status, message);
        return { failure: taskErrors.upstream(answer.status >= 400 ? answer.status : 400, parsed.code, message), retry: false };
      }
      return upstreamFailure(ctx, channel, answer.status, message);
    },
  });
}
