/**
 * Errors of the task relays (/mj/*, /suno/*), rendered in each platform's own shape by its routes:
 * midjourney-proxy's `{code, description, result}` and suno-api's `{code, message, data}`.
 */
import { RelayError } from '../relay/errors.js';

export class TaskError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** A short machine-readable reason (suno-api's string code). */
    readonly reason = 'task_error',
  ) {
    super(message);
  }
}

/** Any error a task route throws, as status, reason and message (the relay's own errors included). */
export function describeError(error: unknown): { status: number; reason: string; message: string } | null {
  if (error instanceof TaskError) return { status: error.status, reason: error.reason, message: error.message };
  if (error instanceof RelayError) return { status: error.status, reason: error.code, message: error.message };
  return null;
}

/** midjourney-proxy's numeric codes for a refusal: 3 not found, 4 validation error, 9 failure. */
export function mjCode(status: number): number {
  if (status === 404) return 3;
  if (status >= 400 && status < 500) return 4;
  return 9;
}
