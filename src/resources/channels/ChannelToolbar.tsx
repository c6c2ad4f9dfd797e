import { useState } from 'react';
import { Button, FormControlLabel, Stack, Switch } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import RefreshIcon from '@mui/icons-material/Refresh';
import { Confirm, useListContext, useNotify, useRefresh, useTranslate } from 'react-admin';
import { Link, useLocation } from 'react-router-dom';
import { canAccess } from '../../authProvider/canAccess';
import { useRole } from '../schema';
import { BatchTagDialog } from './BatchTagDialog';
import { deleteChannels, deleteDisabledChannels, fixChannels, testAllChannels, updateAllBalances } from './channelApi';
import { ColumnSettingsButton, type ChannelColumn, type ColumnVisibility } from './ColumnSettings';

export interface ListModes {
  idSort: boolean;
  tagMode: boolean;
  batchMode: boolean;
  setIdSort: (on: boolean) => void;
  setTagMode: (on: boolean) => void;
  setBatchMode: (on: boolean) => void;
}

type Confirming = 'delete_disabled' | 'fix' | 'delete_selected' | null;

const failed = (err: unknown) => (err instanceof Error ? err.message : 'app.error.request_failed');

/** The list's actions and switches (spec 2, channel management). */
export function ChannelToolbar({
  modes,
  columns,
  onColumnChange,
}: {
  modes: ListModes;
  columns: ColumnVisibility;
  onColumnChange: (column: ChannelColumn, visible: boolean) => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const role = useRole();
  const location = useLocation();
  const { selectedIds, onUnselectItems, setPage } = useListContext();
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [tagging, setTagging] = useState(false);
  const [busy, setBusy] = useState(false);
  const t = (key: string) => translate(`resources.channels.actions.${key}`);
  const isRoot = canAccess(role, { resource: 'channel', action: 'delete' });
  const ids = selectedIds.map(Number).filter((id) => Number.isInteger(id));

  const run = <T,>(work: () => Promise<T>, message: string, args?: (result: T) => Record<string, unknown>) => {
    setBusy(true);
    work()
      .then((result) => {
        notify(message, { type: 'success', messageArgs: args?.(result) });
        refresh();
      })
      .catch((err: unknown) => notify(failed(err), { type: 'error' }))
      .finally(() => setBusy(false));
  };
  const needSelection = () => {
    if (ids.length > 0) return true;
    notify('resources.channels.validation.no_selection', { type: 'error' });
    return false;
  };
  const confirmed = () => {
    const action = confirming;
    setConfirming(null);
    const N = 'resources.channels.notification.';
    if (action === 'delete_disabled') run(deleteDisabledChannels, `${N}disabled_deleted`, (count) => ({ count }));
    if (action === 'fix') run(fixChannels, `${N}fixed`, (count) => ({ count }));
    if (action === 'delete_selected') {
      run(
        () => deleteChannels(ids).finally(() => onUnselectItems()),
        `${N}batch_deleted`,
        (count) => ({ count }),
      );
    }
  };

  return (
    <Stack spacing={1} sx={{ px: 1, pb: 1 }}>
      <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap alignItems="center">
        <Button
          size="small"
          variant="contained"
          startIcon={<AddIcon />}
          component={Link}
          to={{ pathname: '/channel/add', search: location.search }}
        >
          {t('add')}
        </Button>
        <Button size="small" disabled={busy} onClick={() => run(testAllChannels, 'resources.channels.notification.test_all')}>
          {t('test_all')}
        </Button>
        <Button
          size="small"
          disabled={busy}
          onClick={() => run(updateAllBalances, 'resources.channels.notification.balances_updated', (sweep) => ({ ...sweep }))}
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
        <ColumnSettingsButton visible={columns} onChange={onColumnChange} />
      </Stack>
      <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap alignItems="center">
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
              {translate('resources.channels.actions.delete_selected', { count: ids.length })}
            </Button>
            <Button size="small" variant="outlined" disabled={busy} onClick={() => needSelection() && setTagging(true)}>
              {t('batch_tag')}
            </Button>
          </>
        )}
      </Stack>
      <Confirm
        isOpen={confirming !== null}
        title={`resources.channels.confirm.${confirming ?? 'fix'}_title`}
        content={`resources.channels.confirm.${confirming ?? 'fix'}_content`}
        translateOptions={{ count: ids.length }}
        onConfirm={confirmed}
        onClose={() => setConfirming(null)}
      />
      <BatchTagDialog
        open={tagging}
        ids={ids}
        onClose={() => setTagging(false)}
        onDone={() => {
          setTagging(false);
          onUnselectItems();
          refresh();
        }}
      />
    </Stack>
  );
}
