import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Button, FormControlLabel, Stack, Switch } from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import { Confirm, useListContext, useNotify, useRefresh, useTranslate } from 'react-admin';
import { useAccessPolicy } from '../../authProvider/access';
import { ActionFormDrawer, useRole } from '../schema';
import { useGateway } from '../../api/customMethods';
import { batchTagForm } from './tagForms';

/** localStorage key of the sort-by-ID switch. */
export const ID_SORT_KEY = 'id-sort';

/** The switches of the channel screen, shared by its toolbar, its filter and its rows. */
export interface ListModes {
  idSort: boolean;
  tagMode: boolean;
  batchMode: boolean;
  setIdSort: (on: boolean) => void;
  setTagMode: (on: boolean) => void;
  setBatchMode: (on: boolean) => void;
}

const ModesContext = createContext<ListModes | null>(null);

export function useModes(): ListModes {
  const modes = useContext(ModesContext);
  if (!modes) throw new Error('useModes outside ChannelModes');
  return modes;
}

/** Holds the switches; sort-by-ID is remembered. */
export function ChannelModes({ children }: { children: ReactNode }) {
  const [idSort, setIdSortState] = useState(() => localStorage.getItem(ID_SORT_KEY) === 'true');
  const [tagMode, setTagMode] = useState(false);
  const [batchMode, setBatchMode] = useState(false);
  const modes = useMemo(
    () => ({
      idSort,
      tagMode,
      batchMode,
      setIdSort: (on: boolean) => {
        localStorage.setItem(ID_SORT_KEY, String(on));
        setIdSortState(on);
      },
      setTagMode,
      setBatchMode,
    }),
    [idSort, tagMode, batchMode],
  );
  return <ModesContext.Provider value={modes}>{children}</ModesContext.Provider>;
}

/** Sent with every list and search call; absent when off. */
export function useModeFilter(): Record<string, unknown> {
  const { idSort, tagMode } = useModes();
  return useMemo(() => ({ ...(idSort ? { id_sort: true } : {}), ...(tagMode ? { tag_mode: true } : {}) }), [idSort, tagMode]);
}

type Confirming = 'delete_disabled' | 'fix' | 'delete_selected' | null;

const failed = (err: unknown) => (err instanceof Error ? err.message : 'app.error.request_failed');

/**
 * The channel list's actions and switches, in one wrapping row over the rows:
 * test all, update balances, delete disabled, fix, refresh, the sort-by-ID, tag and batch
 * switches, and in batch mode the actions on the selection.
 */
export function ChannelToolbar() {
  const modes = useModes();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const role = useRole();
  const may = useAccessPolicy();
  const { selectedIds, onUnselectItems, setPage } = useListContext();
  const [confirming, setConfirming] = useState<Confirming>(null);
  // The selection the tag form was opened for.
  const [tagging, setTagging] = useState<number[] | null>(null);
  const t = (key: string) => translate(`resources.channel.actions.${key}`);
  const isRoot = may(role, { resource: 'channel', action: 'delete' });
  const ids = selectedIds.map(Number).filter((id) => Number.isInteger(id));

  const gateway = useGateway();
  const action = useMutation({
    mutationFn: (work: () => Promise<[string, Record<string, unknown>?]>) => work(),
    onSuccess: ([message, messageArgs]) => {
      notify(message, { type: 'success', messageArgs });
      refresh();
    },
    onError: (err: unknown) => notify(failed(err), { type: 'error' }),
  });
  const busy = action.isPending;
  const run = <T,>(work: () => Promise<T>, message: string, args?: (result: T) => Record<string, unknown>) =>
    action.mutate(async () => {
      const result = await work();
      return [message, args?.(result)];
    });
  const needSelection = () => {
    if (ids.length > 0) return true;
    notify('resources.channel.validation.no_selection', { type: 'error' });
    return false;
  };
  const confirmed = () => {
    const action = confirming;
    setConfirming(null);
    const N = 'resources.channel.notification.';
    if (action === 'delete_disabled')
      run(
        () => gateway.deleteDisabledChannels(),
        `${N}disabled_deleted`,
        (count) => ({ count }),
      );
    if (action === 'fix')
      run(
        () => gateway.fixChannels(),
        `${N}fixed`,
        ({ success, fails }) => ({ success, fails }),
      );
    if (action === 'delete_selected') {
      run(
        () => gateway.deleteChannels(ids).finally(() => onUnselectItems()),
        `${N}batch_deleted`,
        (count) => ({ count }),
      );
    }
  };

  return (
    <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap alignItems="center" sx={{ px: 1, pb: 1 }}>
      <Button
        size="small"
        disabled={busy}
        onClick={() => run(() => gateway.testAllChannels(), 'resources.channel.notification.test_all')}
      >
        {t('test_all')}
      </Button>
      <Button
        size="small"
        disabled={busy}
        onClick={() =>
          run(
            () => gateway.updateAllBalances(),
            'resources.channel.notification.balances_updated',
            (sweep) => ({ ...sweep }),
          )
        }
      >
        {t('update_balances')}
      </Button>
      <Button size="small" color="error" disabled={busy || !isRoot} onClick={() => setConfirming('delete_disabled')}>
        {t('delete_disabled')}
      </Button>
      <Button size="small" color="warning" disabled={busy} onClick={() => setConfirming('fix')}>
        {t('fix')}
      </Button>
      <Button size="small" startIcon={<RefreshIcon />} onClick={() => refresh()}>
        {translate('ra.action.refresh')}
      </Button>
      <FormControlLabel
        control={
          <Switch
            size="small"
            checked={modes.idSort}
            onChange={(e) => {
              modes.setIdSort(e.target.checked);
              setPage(1);
            }}
          />
        }
        label={t('id_sort')}
      />
      <FormControlLabel
        control={
          <Switch
            size="small"
            checked={modes.tagMode}
            onChange={(e) => {
              modes.setTagMode(e.target.checked);
              setPage(1);
            }}
          />
        }
        label={t('tag_mode')}
      />
      <FormControlLabel
        control={
          <Switch
            size="small"
            checked={modes.batchMode}
            disabled={!isRoot}
            onChange={(e) => {
              modes.setBatchMode(e.target.checked);
              if (!e.target.checked) onUnselectItems();
            }}
          />
        }
        label={t('batch_mode')}
      />
      {modes.batchMode && (
        <>
          <Button
            size="small"
            color="error"
            variant="outlined"
            disabled={busy}
            onClick={() => needSelection() && setConfirming('delete_selected')}
          >
            {translate('resources.channel.actions.delete_selected', { count: ids.length })}
          </Button>
          <Button size="small" variant="outlined" disabled={busy} onClick={() => needSelection() && setTagging(ids)}>
            {t('batch_tag')}
          </Button>
        </>
      )}
      <Confirm
        isOpen={confirming !== null}
        title={`resources.channel.confirm.${confirming ?? 'fix'}_title`}
        content={`resources.channel.confirm.${confirming ?? 'fix'}_content`}
        translateOptions={{ count: ids.length }}
        onConfirm={confirmed}
        onClose={() => setConfirming(null)}
      />
      <ActionFormDrawer
        resource="channel"
        form={batchTagForm}
        subject={tagging}
        onClose={() => setTagging(null)}
        onDone={() => {
          setTagging(null);
          onUnselectItems();
          refresh();
        }}
      />
    </Stack>
  );
}
