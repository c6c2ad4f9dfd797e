import { AppError } from '../http/errors.js';

/**
 * The wallet's answer in the family's words: `message` "success" with what `work` gives, or "error"
 * with the refusal's text as `data` (a business refusal only: anything else is the error handler's).
 */
export async function walletAnswer<T extends { data: unknown }>(work: () => T | Promise<T>) {
  try {
    return { success: true, message: 'success' as const, ...(await work()) };
  } catch (err) {
    if (!(err instanceof AppError) || err.status !== 200) throw err;
    const refusal = { success: false, message: 'error' as const, data: err.message, code: err.code };
    return err.params ? { ...refusal, params: err.params } : refusal;
  }
}
