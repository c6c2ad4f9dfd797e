/**
 * Stored videos in the OpenAI Videos API's `video` object shape. The row keeps the vendor's id and
 * file location in `properties`: neither ever leaves the server.
 */
import type { Task } from '../../db/types.js';
import type { StoredPayer } from '../billing.js';
import { STATUS_FAILURE, STATUS_SUCCESS } from '../status.js';

export interface VideoProperties {
  payer: StoredPayer;
  upstream_id: string;
  model: string;
  prompt: string;
  /** Asked for. */
  seconds: number;
  size: string;
  price: { per_second: number | null; resolution_ratio: number; group_ratio: number };
  /** Where the finished file is, when the vendor named it. */
  file?: string;
  /** What the vendor reported making, once finished. */
  made_seconds?: number;
}

export function videoProperties(row: Pick<Task, 'properties'>): VideoProperties {
  return JSON.parse(row.properties ?? '{}') as VideoProperties;
}

export function videoStatus(status: string): 'queued' | 'in_progress' | 'completed' | 'failed' {
  if (status === STATUS_SUCCESS) return 'completed';
  if (status === STATUS_FAILURE) return 'failed';
  return status === 'IN_PROGRESS' ? 'in_progress' : 'queued';
}

export function toVideoObject(row: Task): Record<string, unknown> {
  const p = videoProperties(row);
  const status = videoStatus(row.status);
  return {
    id: row.task_id,
    object: 'video',
    model: p.model,
    status,
    progress: Number.parseInt(row.progress, 10) || 0,
    created_at: row.submit_time,
    completed_at: row.finish_time || null,
    expires_at: null,
    prompt: p.prompt,
    seconds: String(p.made_seconds ?? p.seconds),
    size: p.size,
    remixed_from_video_id: null,
    error: status === 'failed' ? { code: 'video_generation_failed', message: row.fail_reason ?? '' } : null,
  };
}
