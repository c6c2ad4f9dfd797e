/**
 * The root's option editor state: every option as the server stores it (strings, keyed by the
 * server's option registry), read through react-admin's data layer (one cached query shared by
 * every settings tab), and a save that sends only the keys that changed, one PUT per key, saying
 * whether nothing changed, some keys failed (so the person retries) or the save failed.
 */
import { useCallback, useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import { ApiError } from '../../api/client';
import { useGateway, type OptionKey, type OptionValues } from '../../api/customMethods';

export type { OptionKey, OptionValues };

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

const OPTIONS_QUERY = ['gateway', 'options'] as const;
const NO_VALUES: OptionValues = {};

/**
 * The keys whose value changed, switches (`…Enabled`) last: a switch may be checked against the
 * settings it needs (the e-mail domain restriction needs its whitelist), so those are saved first.
 */
export function changedKeys(current: OptionValues, next: OptionValues): OptionKey[] {
  const changed = (Object.keys(next) as OptionKey[]).filter((key) => next[key] !== (current[key] ?? ''));
  const isSwitch = (key: string) => key.endsWith('Enabled');
  return [...changed.filter((key) => !isSwitch(key)), ...changed.filter(isSwitch)];
}

export function useOptions(): OptionsState {
  const notify = useNotify();
  const translate = useTranslate();
  const gateway = useGateway();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: OPTIONS_QUERY, queryFn: () => gateway.getOptions(), retry: false });
  const values = query.data ?? NO_VALUES;

  const { error } = query;
  useEffect(() => {
    if (error) notify(translate(error.message, { _: error.message }), { type: 'error' });
  }, [error, notify, translate]);

  const { refetch } = query;
  const reload = useCallback(async () => {
    await refetch();
  }, [refetch]);

  const save = useCallback(
    async (next: OptionValues) => {
      const keys = changedKeys(values, next);
      if (keys.length === 0) {
        notify('settings.common.no_change', { type: 'info' });
        return true;
      }
      // One key at a time, in changedKeys' order: some keys are checked against others already saved.
      const failed: unknown[] = [];
      const saved: OptionValues = {};
      for (const key of keys) {
        try {
          await gateway.updateOption(key, next[key] ?? '');
          saved[key] = next[key] ?? '';
        } catch (reason) {
          failed.push(reason);
        }
      }
      if (Object.keys(saved).length > 0) queryClient.setQueryData<OptionValues>(OPTIONS_QUERY, (old) => ({ ...old, ...saved }));
      if (failed.length === 0) {
        notify('settings.common.saved', { type: 'success' });
        return true;
      }
      if (keys.length === 1) {
        const reason = failed[0];
        const message = reason instanceof ApiError ? translate(reason.message, { _: reason.message }) : '';
        notify(
          message ? `${translate('settings.common.save_failed_single')}: ${message}` : 'settings.common.save_failed_single',
          {
            type: 'error',
          },
        );
      } else if (Object.keys(saved).length > 0) notify('settings.common.save_partial', { type: 'error' });
      else notify('settings.common.save_failed', { type: 'error' });
      return false;
    },
    [values, gateway, queryClient, notify, translate],
  );

  return { values, loading: query.isPending, reload, save };
}
