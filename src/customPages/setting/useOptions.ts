/**
 * The root's option editor state: every option as the server stores it (strings), and a save that
 * sends only the keys that changed, one PUT per key, saying whether nothing changed, some keys
 * failed (so the person retries) or the save failed.
 */
import { useCallback, useEffect, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { api, ApiError } from '../../api/client';

export type OptionValues = Record<string, string>;

interface OptionRow {
  key: string;
  value: string;
}

export interface OptionsState {
  values: OptionValues;
  loading: boolean;
  reload(): Promise<void>;
  /**
   * Saves the keys of `next` whose value differs from the loaded one. Returns true when every
   * changed key was saved (or nothing changed), false otherwise; toasts the outcome either way.
   */
  save(next: OptionValues): Promise<boolean>;
}

/**
 * The keys whose value changed, switches (`…Enabled`) last: a switch may be checked against the
 * settings it needs (the e-mail domain restriction needs its whitelist), so those are saved first.
 */
export function changedKeys(current: OptionValues, next: OptionValues): string[] {
  const changed = Object.keys(next).filter((key) => next[key] !== (current[key] ?? ''));
  const isSwitch = (key: string) => key.endsWith('Enabled');
  return [...changed.filter((key) => !isSwitch(key)), ...changed.filter(isSwitch)];
}

export function useOptions(): OptionsState {
  const notify = useNotify();
  const translate = useTranslate();
  const [values, setValues] = useState<OptionValues>({});
  const [loading, setLoading] = useState(true);

  const reload = useCallback(async () => {
    setLoading(true);
    try {
      const rows = await api.get<OptionRow[]>('/api/option/');
      setValues(Object.fromEntries(rows.map((row) => [row.key, row.value ?? ''])));
    } catch (err) {
      notify(translate((err as Error).message, { _: (err as Error).message }), { type: 'error' });
    } finally {
      setLoading(false);
    }
  }, [notify, translate]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const save = useCallback(
    async (next: OptionValues) => {
      const keys = changedKeys(values, next);
      if (keys.length === 0) {
        notify('settings.common.no_change', { type: 'info' });
        return true;
      }
      // One key at a time, in changedKeys' order: some keys are checked against others already saved.
      const results: PromiseSettledResult<unknown>[] = [];
      for (const key of keys) {
        try {
          results.push({ status: 'fulfilled', value: await api.put('/api/option/', { key, value: next[key] }) });
        } catch (reason) {
          results.push({ status: 'rejected', reason });
        }
      }
      const saved = keys.filter((_, i) => results[i]?.status === 'fulfilled');
      if (saved.length > 0) setValues((old) => ({ ...old, ...Object.fromEntries(saved.map((key) => [key, next[key]!])) }));
      const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed.length === 0) {
        notify('settings.common.saved', { type: 'success' });
        return true;
      }
      if (keys.length === 1) {
        const reason = failed[0]!.reason as Error;
        const message = reason instanceof ApiError ? translate(reason.message, { _: reason.message }) : '';
        notify(
          message ? `${translate('settings.common.save_failed_single')}: ${message}` : 'settings.common.save_failed_single',
          {
            type: 'error',
          },
        );
      } else if (saved.length > 0) notify('settings.common.save_partial', { type: 'error' });
      else notify('settings.common.save_failed', { type: 'error' });
      return false;
    },
    [values, notify, translate],
  );

  return { values, loading, reload, save };
}
