/** How a stored log row is shown: admins see the channel and `other.admin_info`, others do not. */
import type { LogRecord } from './list-repository.js';
import type { LogItem } from './schemas.js';

/**
 * `other` without `admin_info` (the channels tried and their errors). A value that is not a JSON
 * object cannot be filtered, so a non-admin gets an empty string rather than text that might
 * carry what the filter would have removed.
 */
export function stripAdminInfo(other: string | null): string {
  if (!other) return '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(other);
  } catch {
    return '';
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return '';
  if (!('admin_info' in parsed)) return other;
  const copy: Record<string, unknown> = { ...parsed };
  delete copy.admin_info;
  return JSON.stringify(copy);
}

export function toLogItem(row: LogRecord, admin: boolean, channelName: (id: number) => string | undefined): LogItem {
  return {
    id: row.id,
    created_at: Number(row.created_at),
    type: row.type,
    content: row.content ?? '',
    username: row.username,
    user_id: row.user_id,
    token_name: row.token_name,
    token_id: row.token_id,
    model_name: row.model_name,
    quota: Number(row.quota),
    prompt_tokens: row.prompt_tokens,
    completion_tokens: row.completion_tokens,
    use_time: row.use_time,
    is_stream: Boolean(row.is_stream),
    channel: admin ? row.channel_id : 0,
    channel_name: admin && row.channel_id ? (channelName(row.channel_id) ?? '') : '',
    group: row.group,
    other: admin ? (row.other ?? '') : stripAdminInfo(row.other),
  };
}
