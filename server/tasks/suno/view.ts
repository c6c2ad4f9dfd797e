/** Stored music tasks in suno-api's task shape (what `/suno/fetch` answers). */
import type { Task } from '../../db/types.js';

function parseData(json: string | null): unknown {
  if (json === null || json === '') return null;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return null;
  }
}

export function toSunoTask(row: Task): Record<string, unknown> {
  return {
    task_id: row.task_id,
    action: row.action,
    status: row.status,
    fail_reason: row.fail_reason ?? '',
    submit_time: row.submit_time,
    start_time: row.start_time,
    finish_time: row.finish_time,
    progress: row.progress,
    data: parseData(row.data),
  };
}
