import { useCallback, useState } from 'react';

/** localStorage key of the usage-log column choice (spec 3, "logs columns"). */
export const LOG_COLUMNS_KEY = 'logs-columns';

/** The columns in display order; `admin` ones are never offered to other people. */
export const LOG_COLUMNS = [
  { key: 'time' },
  { key: 'channel', admin: true },
  { key: 'username', admin: true },
  { key: 'token' },
  { key: 'group' },
  { key: 'type' },
  { key: 'model' },
  { key: 'use_time' },
  { key: 'prompt' },
  { key: 'completion' },
  { key: 'quota' },
  { key: 'retry', admin: true },
  { key: 'details' },
] as const satisfies readonly { key: string; admin?: boolean }[];

export type LogColumnKey = (typeof LOG_COLUMNS)[number]['key'];

/** Column → shown; columns missing from the stored choice are shown. */
export type ColumnChoice = Partial<Record<LogColumnKey, boolean>>;

export function storedColumnChoice(): ColumnChoice {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(LOG_COLUMNS_KEY) ?? '{}');
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    const choice: ColumnChoice = {};
    for (const { key } of LOG_COLUMNS) {
      const shown = (value as Record<string, unknown>)[key];
      if (typeof shown === 'boolean') choice[key] = shown;
    }
    return choice;
  } catch {
    return {};
  }
}

/** The columns this person may see, and which of them are switched on (remembered). */
export function useLogColumns(admin: boolean) {
  const [choice, setChoice] = useState<ColumnChoice>(storedColumnChoice);
  const available = LOG_COLUMNS.filter((column) => admin || !('admin' in column)).map((column) => column.key);
  const save = useCallback((next: ColumnChoice) => {
    localStorage.setItem(LOG_COLUMNS_KEY, JSON.stringify(next));
    setChoice(next);
  }, []);
  return {
    available,
    visible: available.filter((key) => choice[key] !== false),
    isShown: (key: LogColumnKey) => choice[key] !== false,
    toggle: (key: LogColumnKey) => save({ ...choice, [key]: choice[key] === false }),
    reset: () => save({}),
  };
}
