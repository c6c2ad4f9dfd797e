import type { LOG_TYPES, LogExtend, LogItem, LogOther, LogStat } from '../../../server/logs/schemas';

/** A row of the usage logs as the server sends it. */
export type LogRecord = LogItem;
export type { LogExtend, LogOther, LogStat };

/**
 * The log types. Kept here rather than imported so the console bundle does not pull in
 * the server's schema library; `satisfies` makes the compiler hold it equal to the server's.
 */
export const LOG_TYPE = { topup: 1, consume: 2, manage: 3, system: 4, error: 5, refund: 6 } as const satisfies typeof LOG_TYPES;

type LabelColor = 'info' | 'success' | 'warning' | 'secondary' | 'error' | 'primary';

/** Log type → i18n key under `resources.log.types` and its label colour. */
export const LOG_TYPE_LABELS: Record<number, { key: keyof typeof LOG_TYPE; color: LabelColor }> = {
  [LOG_TYPE.topup]: { key: 'topup', color: 'info' },
  [LOG_TYPE.consume]: { key: 'consume', color: 'success' },
  [LOG_TYPE.manage]: { key: 'manage', color: 'warning' },
  [LOG_TYPE.system]: { key: 'system', color: 'secondary' },
  [LOG_TYPE.error]: { key: 'error', color: 'error' },
  [LOG_TYPE.refund]: { key: 'refund', color: 'primary' },
};

/** The row's `other` JSON; an empty or broken one reads as no details. */
export function parseOther(raw: string | null | undefined): LogOther {
  if (!raw) return {};
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as LogOther) : {};
  } catch {
    return {};
  }
}
