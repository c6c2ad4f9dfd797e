/**
 * How a stored task row is shown on the console's lists: admins see the owner and the channel,
 * others only their own rows without the channel. Drawing images may be served through the
 * gateway's own /mj/image/{mj_id} address (option MjForwardUrlEnabled).
 */
import type { MjRecord, TaskRecord } from './list-repository.js';
import type { MjItem, TaskItem } from './list-schemas.js';

export interface ViewContext {
  admin: boolean;
  username: (userId: number) => string | undefined;
  channelName: (channelId: number) => string | undefined;
  /** The gateway's public address when image forwarding is on; '' to keep the upstream's URL. */
  forwardBase: string;
}

/** The fields every list item starts with: row id, times, and the owner and channel as `view` may see them. */
function listed(row: TaskRecord | MjRecord, view: ViewContext) {
  const channelId = Number(row.channel_id);
  return {
    id: Number(row.id),
    created_at: Number(row.created_at),
    submit_time: Number(row.submit_time),
    start_time: Number(row.start_time),
    finish_time: Number(row.finish_time),
    user_id: Number(row.user_id),
    username: view.admin ? (view.username(Number(row.user_id)) ?? '') : '',
    channel_id: view.admin ? channelId : 0,
    channel_name: view.admin && channelId ? (view.channelName(channelId) ?? '') : '',
  };
}

export function toMjItem(row: MjRecord, view: ViewContext): MjItem {
  const image = row.image_url ?? '';
  return {
    ...listed(row, view),
    action: row.action,
    mj_id: row.mj_id,
    code: Number(row.code),
    status: row.status,
    progress: row.progress,
    image_url: image && view.forwardBase && row.mj_id ? `${view.forwardBase}/mj/image/${encodeURIComponent(row.mj_id)}` : image,
    prompt: row.prompt ?? '',
    prompt_en: row.prompt_en ?? '',
    fail_reason: row.fail_reason ?? '',
  };
}

export function toTaskItem(row: TaskRecord, view: ViewContext): TaskItem {
  return {
    ...listed(row, view),
    platform: row.platform,
    action: row.action,
    task_id: row.task_id,
    status: row.status,
    progress: row.progress,
    fail_reason: row.fail_reason ?? '',
  };
}
