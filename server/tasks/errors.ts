/**
 * The task relays' refusals (/mj/*, /suno/*), as AppErrors with the codes those platforms use;
 * rendered in midjourney-proxy's `{code, description, result}` or suno-api's `{code, message, data}`
 * shape by the error handler (server/http/wire.ts).
 */
import { AppError, refuse } from '../http/errors.js';
import type { SafeFetchError } from '../http/safe-fetch.js';

export const taskErrors = {
  invalid: (detail: string) => refuse(400, 'invalid_request', { detail }),
  /** Midjourney's word for an unknown task. */
  notFound: () => refuse(404, 'task_not_found'),
  /** Suno's word for an unknown task. */
  notExist: () => refuse(404, 'task_not_exist'),
  statusNotSuccess: () => refuse(400, 'task_status_not_success'),
  channelGone: () => refuse(503, 'channel_not_found'),
  channelDisabled: () => refuse(503, 'channel_disabled'),
  imageFetch: (detail: string, cause?: SafeFetchError) =>
    refuse(502, cause ? `image_${cause.code}` : 'image_fetch_failed', { detail }),
  /** The platform's own refusal, its status and code passed through. */
  upstream: (status: number, code: string, message: string) => new AppError(status, code, message),
};
