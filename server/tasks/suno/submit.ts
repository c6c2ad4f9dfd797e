/**
 * One Suno submission (`POST /suno/submit/music|lyrics`): the price of `suno_music` or
 * `suno_lyrics` debited first, a Suno channel chosen by group and model (or the channel of the
 * task a continuation extends), the body sent on with the channel's Bearer key, and then either
 * the stored task (platform `suno`) with its consume log, or the charge given back.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../../context.js';
import type { Task } from '../../db/types.js';
import { resolveCaller } from '../../relay/caller.js';
import { relayErrors } from '../../relay/errors.js';
import { reportUpstreamFailure } from '../../relay/health.js';
import { mapStatus } from '../../relay/model-mapping.js';
import { upstreamErrorMessage } from '../../relay/upstream.js';
import { charge, giveBack, logConsume, storedPayer } from '../billing.js';
import {
  SUNO_TYPES,
  baseUrl,
  callPlatform,
  platformHeaders,
  isRecord,
  parseJson,
  pickChannel,
  retryable,
  str,
} from '../channel.js';
import { TaskError } from '../errors.js';

export const SUNO_PLATFORM = 'suno';
export type SunoAction = 'music' | 'lyrics';

const SUBMIT_TIMEOUT_MS = 120_000;

export function findOwnSunoTask(ctx: GatewayContext, userId: number, taskId: string): Promise<Task | undefined> {
  return ctx.db
    .selectFrom('tasks')
    .selectAll()
    .where('platform', '=', SUNO_PLATFORM)
    .where('task_id', '=', taskId)
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function submitSuno(
  ctx: GatewayContext,
  request: FastifyRequest,
  reply: FastifyReply,
  action: SunoAction,
): Promise<FastifyReply> {
  const started = performance.now();
  const caller = await resolveCaller(ctx, request);
  const body = request.body;
  if (!isRecord(body)) throw new TaskError(400, 'request body must be a JSON object', 'invalid_request');
  // A continuation (`task_id` of an earlier song) must go to the channel that made that song.
  const originId = action === 'music' ? str(body.task_id).trim() : '';
  const origin = originId ? await findOwnSunoTask(ctx, caller.user.id, originId) : undefined;
  if (originId && !origin) throw new TaskError(404, 'task_not_exist', 'task_not_exist');
  const model = `suno_${action}`;
  const charged = await charge(ctx, caller, model);

  let settled = false;
  try {
    const tried: number[] = [];
    const pinned = origin !== undefined || caller.pinnedChannelId !== null;
    const retries = pinned ? 0 : Math.max(0, ctx.options.number('RetryTimes'));
    let failure: TaskError | null = null;
    for (let attempt = 0; attempt <= retries; attempt++) {
      const channel = origin ? ctx.channels.get(origin.channel_id) : pickChannel(ctx, caller, model, SUNO_TYPES, attempt, tried);
      if (!channel) {
        if (origin) failure = new TaskError(503, '该任务所属渠道已不存在', 'channel_not_found');
        break;
      }
      if (origin && channel.status !== 1) {
        failure = new TaskError(503, '该任务所属渠道已被禁用', 'channel_disabled');
        break;
      }
      tried.push(channel.id);
      let answer;
      try {
        answer = await callPlatform(
          `${baseUrl(channel)}/suno/submit/${action}`,
          platformHeaders(channel),
          body,
          SUBMIT_TIMEOUT_MS,
        );
      } catch (err) {
        failure = new TaskError(502, `上游连接失败：${(err as Error).message}`, 'upstream_connection_error');
        continue;
      }
      const parsed = parseJson(answer.text);
      if (answer.status === 200 && isRecord(parsed) && parsed.code === 'success' && str(parsed.data) !== '') {
        const taskId = str(parsed.data);
        const now = Math.floor(Date.now() / 1000);
        await ctx.db
          .insertInto('tasks')
          .values({
            created_at: now,
            updated_at: now,
            task_id: taskId,
            platform: SUNO_PLATFORM,
            user_id: caller.user.id,
            channel_id: channel.id,
            quota: charged.quota,
            action: action.toUpperCase(),
            status: 'SUBMITTED',
            submit_time: now,
            progress: '0%',
            properties: JSON.stringify({
              payer: storedPayer(charged.payer),
              ...(typeof body.prompt === 'string' ? { input: body.prompt.slice(0, 2000) } : {}),
            }),
          })
          .execute();
        settled = true;
        logConsume(ctx, {
          charge: charged,
          channelId: channel.id,
          tried,
          clientIp: request.ip,
          useTimeMs: performance.now() - started,
          action: action.toUpperCase(),
          taskId,
        });
        return reply.send({ code: 'success', message: '', data: taskId });
      }
      const message =
        isRecord(parsed) && typeof parsed.message === 'string' && parsed.message !== ''
          ? parsed.message
          : upstreamErrorMessage(answer.text, answer.status);
      reportUpstreamFailure(ctx, channel, answer.status, message);
      if (!retryable(answer.status) && isRecord(parsed) && typeof parsed.code === 'string') {
        // The upstream answered and refused the task itself: its word goes back to the client.
        failure = new TaskError(answer.status >= 400 ? answer.status : 400, message, parsed.code);
        break;
      }
      failure = new TaskError(
        mapStatus(channel.status_code_mapping, answer.status >= 400 ? answer.status : 502),
        message,
        'upstream_error',
      );
      if (!retryable(answer.status)) break;
    }
    throw failure ?? relayErrors.noChannel(model, caller.group);
  } finally {
    if (!settled) await giveBack(ctx, charged);
  }
}
