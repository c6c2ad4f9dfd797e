/**
 * Stored drawing tasks in midjourney-proxy's task shape (what `/mj/task/{id}/fetch` answers), and
 * the `properties` column: the gateway's own record (the payer) next to the upstream's task
 * properties and the fields the table has no column for (video URLs, the button pressed).
 */
import type { FastifyRequest } from 'fastify';
import type { GatewayContext } from '../../context.js';
import type { Midjourney } from '../../db/types.js';
import type { StoredPayer } from '../billing.js';
import { isRecord } from '../channel.js';

export interface MjProperties {
  payer?: StoredPayer;
  /** The upstream task's `properties` object. */
  upstream?: Record<string, unknown>;
  customId?: string;
  botType?: string;
  videoUrl?: string;
  videoUrls?: unknown;
  /** The speed mode the client's path asked for (`/mj-fast/mj/…`). */
  mode?: string;
}

export function readProperties(json: string | null): MjProperties {
  try {
    const parsed = JSON.parse(json ?? '') as unknown;
    return isRecord(parsed) ? (parsed as MjProperties) : {};
  } catch {
    return {};
  }
}

/** The gateway's own address for links it hands out: ServerAddress, else the request's origin. */
export function gatewayOrigin(ctx: GatewayContext, request: FastifyRequest): string {
  const configured = ctx.options.string('ServerAddress').trim().replace(/\/+$/, '');
  if (configured !== '') return configured;
  return `${request.protocol}://${request.host}`;
}

/** The image URL a client sees: the gateway's `/mj/image/{id}` when MjForwardUrlEnabled. */
export function clientImageUrl(ctx: GatewayContext, request: FastifyRequest, row: Midjourney): string {
  const url = row.image_url ?? '';
  if (url === '' || !ctx.options.bool('MjForwardUrlEnabled')) return url;
  return `${gatewayOrigin(ctx, request)}/mj/image/${encodeURIComponent(row.mj_id)}`;
}

function parseButtons(json: string | null): unknown[] {
  try {
    const parsed = JSON.parse(json ?? '[]') as unknown;
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

/** One stored task as midjourney-proxy answers it. */
export function toProxyTask(ctx: GatewayContext, request: FastifyRequest, row: Midjourney): Record<string, unknown> {
  const props = readProperties(row.properties);
  const task: Record<string, unknown> = {
    id: row.mj_id,
    action: row.action,
    customId: props.customId ?? '',
    botType: props.botType ?? '',
    prompt: row.prompt ?? '',
    promptEn: row.prompt_en ?? '',
    description: row.description ?? '',
    state: row.state ?? '',
    submitTime: row.submit_time,
    startTime: row.start_time,
    finishTime: row.finish_time,
    imageUrl: clientImageUrl(ctx, request, row),
    status: row.status,
    progress: row.progress,
    failReason: row.fail_reason ?? '',
    buttons: parseButtons(row.buttons),
    properties: props.upstream ?? {},
  };
  if (props.videoUrl !== undefined) task.videoUrl = props.videoUrl;
  if (props.videoUrls !== undefined) task.videoUrls = props.videoUrls;
  return task;
}
