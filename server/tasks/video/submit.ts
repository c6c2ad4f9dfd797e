/**
 * `POST /v1/videos`: the request read and checked, the asked seconds priced and held, a channel of a
 * video vendor chosen by group and model (server/tasks/submit-loop.ts), the vendor's own submission
 * sent, and then either the stored task (platform `video`, under a public id of our own) with its
 * consume log, or the charge given back.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../../context.js';
import { callerOf } from '../../relay/entry/identify-caller.js';
import { checkModelLimit } from '../../relay/entry/read-request.js';
import { checkTextSensitive } from '../../relay/guards/sensitive-words.js';
import { reportUpstreamFailure } from '../../relay/call/report-outcome.js';
import { upstreamErrorMessage } from '../../relay/call/call-upstream.js';
import { relayErrors } from '../../relay/errors.js';
import { mapModel } from '../../relay/call/map-model.js';
import { charge, storedPayer } from '../billing.js';
import { parseJson, retryable } from '../channel.js';
import { submitToChannels, upstreamFailure } from '../submit-loop.js';
import { videoPlatformOf, VIDEO_TYPES } from './platforms.js';
import { priceOfSeconds, quotaOfSeconds, videoPrice } from './price.js';
import { insertVideo } from './repository.js';
import { readVideoRequest } from './request.js';
import type { VideoProperties } from './view.js';
import { toVideoObject } from './view.js';

export async function submitVideo(ctx: GatewayContext, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const started = performance.now();
  const caller = callerOf(request);
  const req = await readVideoRequest(request.body, request.headers['content-type']);
  checkTextSensitive(ctx, req.prompt);
  checkModelLimit(caller, req.model);
  const price = videoPrice(ctx, caller, req.model, req.size);
  const quota = quotaOfSeconds(ctx, price, req.seconds);
  const other = {
    video_seconds: req.seconds,
    video_size: req.size,
    ...(price.perSecond === null ? {} : { second_price: price.perSecond, resolution_ratio: price.resolutionRatio }),
  };
  const charged = await charge(ctx, reply, caller, req.model, { price: priceOfSeconds(price, req.seconds), quota, other });

  return submitToChannels(ctx, {
    charged,
    types: VIDEO_TYPES,
    origin: undefined,
    url: () => '',
    body: undefined,
    call: async (channel) => {
      // The channel's model mapping names the vendor's model; the client's name stays on the bill.
      const mapped = mapModel(channel.model_mapping, req.model);
      return await videoPlatformOf(channel.type)!.submit(channel, { ...req, model: mapped.ok ? mapped.model : req.model });
    },
    started,
    clientIp: request.ip,
    answered: async (channel, answer, settle) => {
      const platform = videoPlatformOf(channel.type)!;
      const parsed = parseJson(answer.text);
      const got = platform.submitted(answer.status, parsed, req);
      if ('id' in got) {
        const id = `video_${randomBytes(16).toString('hex')}`;
        const now = Math.floor(Date.now() / 1000);
        const properties: VideoProperties = {
          payer: storedPayer(charged),
          upstream_id: got.id,
          model: req.model,
          prompt: req.prompt.slice(0, 2000),
          seconds: req.seconds,
          size: req.size,
          price: { per_second: price.perSecond, resolution_ratio: price.resolutionRatio, group_ratio: price.groupRatio },
        };
        const row = {
          created_at: now,
          updated_at: now,
          task_id: id,
          user_id: caller.user.id,
          channel_id: channel.id,
          quota,
          action: 'VIDEO',
          status: 'QUEUED',
          submit_time: now,
          progress: '0%',
          properties: JSON.stringify(properties),
        };
        await settle.keep('VIDEO', id, (trx) => insertVideo(trx, row));
        return {
          result: reply.send(
            toVideoObject({ ...row, id: 0, platform: 'video', start_time: 0, finish_time: 0, fail_reason: null, data: null }),
          ),
        };
      }
      const status = got.status ?? answer.status;
      const message = got.error || upstreamErrorMessage(answer.text, answer.status);
      if (!retryable(status) && status >= 400 && status < 500) {
        // The vendor refused the request itself: its word goes back to the client, no other channel tries.
        reportUpstreamFailure(ctx, channel, status, message);
        return { failure: relayErrors.upstream(status, message), retry: false };
      }
      return upstreamFailure(ctx, channel, status, message);
    },
  });
}
