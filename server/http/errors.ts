/** The one error type of the server. Routes throw it; the error handler renders it. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code = 'error',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A business failure on the console API: HTTP 200 with `{success:false, message}`. */
export function fail(message: string): AppError {
  return new AppError(200, message, 'failed');
}

export const unauthorized = (message = '无权进行此操作，未登录且未提供 access token'): AppError =>
  new AppError(401, message, 'unauthorized');
