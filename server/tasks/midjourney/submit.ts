/**
 * One Midjourney submission: who pays, what is asked, the charge (debited before the upstream is
 * asked), the channel (chosen by group and `mj_<action>`, or the channel holding the task a button
 * acts on; server/tasks/submit-loop.ts), the upstream call with `mj-api-secret`, and then either
 * the stored task and its consume log (codes 1 submitted, 21 existing or waiting for a window,
 * 22 queued) or the charge given back (any other code, or no answer). The client gets the
 * upstream's answer as it came.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../../context.js';
import type { Midjourney } from '../../db/types.js';
import type { Db } from '../../db/index.js';
import { callerOf } from '../../relay/entry/identify-caller.js';
import { checkTextSensitive } from '../../relay/guards/sensitive-words.js';
import { upstreamErrorMessage } from '../../relay/call/call-upstream.js';
import { charge, storedPayer, type TaskCharge } from '../billing.js';
import { MIDJOURNEY_TYPES, baseUrl, int, isRecord, parseJson, str } from '../channel.js';
import { taskErrors } from '../errors.js';
import { submitToChannels, upstreamFailure } from '../submit-loop.js';
import { STATUS_FAILURE, STATUS_SUCCESS } from '../status.js';
import { continueTask, findOwnTask, insertMidjourney } from './repository.js';
import { modelOf, planSubmit, upstreamBody, upstreamPath, type SubmitKind, type SubmitPlan } from './actions.js';
import type { MjProperties } from './view.js';

/** Submit codes that mean the upstream took the task: submitted, existing (or window), queued. */
const ACCEPTED = new Set([1, 21, 22]);

interface Accepted {
  plan: SubmitPlan;
  answer: Record<string, unknown>;
  charged: TaskCharge;
  channelId: number;
  origin: Midjourney | undefined;
  mode: string | null;
}

/** The upstream's id of an accepted task ('' for an upload, which has none). */
function acceptedId(plan: SubmitPlan, answer: Record<string, unknown>): string {
  return plan.action === 'UPLOAD' && Array.isArray(answer.result) ? '' : str(answer.result);
}

/** Writes the task the upstream accepted: a new row, or the window task a modal submission completes. */
async function storeAccepted(db: Db, a: Accepted): Promise<void> {
  const { plan, answer, charged } = a;
  const now = Date.now();
  const code = int(answer.code);
  const upstreamProps = isRecord(answer.properties) ? answer.properties : {};
  const uploaded = plan.action === 'UPLOAD' && Array.isArray(answer.result) ? answer.result.map(str) : null;
  const mjId = uploaded ? '' : str(answer.result);
  let status = 'SUBMITTED';
  let imageUrl: string | null = null;
  if (uploaded) {
    status = STATUS_SUCCESS;
    imageUrl = uploaded[0] ?? null;
  } else if (code === 21) {
    status = str(upstreamProps.status) || 'MODAL';
    imageUrl = str(upstreamProps.imageUrl) || null;
  }
  const done = status === STATUS_SUCCESS;

  if (plan.action === 'MODAL' && a.origin && a.origin.mj_id === mjId) {
    // The window task goes on under its own id: it now carries this charge too.
    const fields = { code, status, prompt: plan.prompt ?? a.origin.prompt };
    if (await continueTask(db, a.origin.id, fields, charged.quota)) return;
  }

  const props: MjProperties = {
    payer: storedPayer(charged),
    upstream: upstreamProps,
    ...(plan.kind === 'action' ? { customId: str(plan.body.customId) } : {}),
    ...(typeof plan.body.botType === 'string' ? { botType: plan.body.botType } : {}),
    ...(a.mode ? { mode: a.mode } : {}),
  };
  await insertMidjourney(db, {
    code,
    user_id: charged.caller.user.id,
    action: plan.action,
    mj_id: mjId,
    prompt: plan.prompt ?? a.origin?.prompt ?? null,
    prompt_en: a.origin?.prompt_en ?? null,
    description: str(answer.description) || null,
    state: typeof plan.body.state === 'string' ? plan.body.state : null,
    submit_time: now,
    start_time: done ? now : 0,
    finish_time: done ? now : 0,
    image_url: imageUrl,
    status,
    progress: done ? '100%' : '0%',
    fail_reason: null,
    channel_id: a.channelId,
    quota: charged.quota,
    buttons: null,
    properties: JSON.stringify(props),
    created_at: Math.floor(now / 1000),
  });
}

/** A refused submission is kept (quota 0, FAILURE) so the drawing log shows why. */
async function storeRefused(
  ctx: GatewayContext,
  plan: SubmitPlan,
  userId: number,
  channelId: number,
  answer: Record<string, unknown>,
) {
  const now = Date.now();
  await insertMidjourney(ctx.db, {
    code: int(answer.code),
    user_id: userId,
    action: plan.action,
    mj_id: str(answer.result),
    prompt: plan.prompt,
    description: str(answer.description) || null,
    state: typeof plan.body.state === 'string' ? plan.body.state : null,
    submit_time: now,
    finish_time: now,
    status: STATUS_FAILURE,
    progress: '100%',
    fail_reason: str(answer.description) || `code ${int(answer.code)}`,
    channel_id: channelId,
    quota: 0,
    created_at: Math.floor(now / 1000),
  });
}

export async function submitMidjourney(
  ctx: GatewayContext,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: SubmitKind,
  pathMode: string | null,
): Promise<FastifyReply> {
  const started = performance.now();
  const caller = callerOf(request);
  const plan = planSubmit(kind, request.body);
  checkTextSensitive(ctx, plan.prompt ?? '');
  const origin = plan.originId ? await findOwnTask(ctx.db, caller.user.id, plan.originId) : undefined;
  if (plan.originId && !origin) throw taskErrors.notFound();
  if (origin && plan.action !== 'MODAL' && ctx.options.bool('MjActionCheckSuccessEnabled') && origin.status !== STATUS_SUCCESS) {
    throw taskErrors.statusNotSuccess();
  }
  const body = upstreamBody(plan, ctx.options);
  const mode = ctx.options.bool('MjModeClearEnabled') ? null : pathMode;
  const model = modelOf(plan.action);
  const charged = await charge(ctx, reply, caller, model);

  return submitToChannels(ctx, {
    charged,
    types: MIDJOURNEY_TYPES,
    origin,
    url: (channel) => baseUrl(channel) + (mode ? `/mj-${mode}` : '') + upstreamPath(kind),
    body,
    started,
    clientIp: request.ip,
    answered: async (channel, answer, settle) => {
      const parsed = parseJson(answer.text);
      if (isRecord(parsed) && typeof parsed.code === 'number' && answer.status < 500) {
        if (ACCEPTED.has(parsed.code)) {
          const accepted = { plan, answer: parsed, charged, channelId: channel.id, origin, mode };
          await settle.keep(plan.action, acceptedId(plan, parsed), (trx) => storeAccepted(trx, accepted));
        } else {
          await settle.givenBack();
          await storeRefused(ctx, plan, caller.user.id, channel.id, parsed);
        }
        return { result: reply.status(answer.status).send(parsed) };
      }
      const message =
        isRecord(parsed) && typeof parsed.description === 'string'
          ? parsed.description
          : upstreamErrorMessage(answer.text, answer.status);
      return upstreamFailure(ctx, channel, answer.status, message);
    },
  });
}
