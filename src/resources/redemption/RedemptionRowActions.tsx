import { useState } from 'react';
import { Button, Stack } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Confirm, useDelete, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { api } from '../../api/client';
import { useClipboard } from '../../customPages/shared/useClipboard';
import { SchemaEditButton } from '../schema';
import { REDEMPTION_DISABLED, REDEMPTION_UNUSED, REDEMPTION_USED, type RedemptionRecord } from './types';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'app.error.request_failed';
}

/**
 * Copy, enable / disable, edit and delete (spec 4: a used code can be neither enabled, disabled
 * nor edited; only an unused one is edited).
 */
export function RedemptionRowActions() {
  const record = useRecordContext<RedemptionRecord>();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const { copy, dialog } = useClipboard();
  const [remove, { isPending: removing }] = useDelete<RedemptionRecord>();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  if (!record) return null;

  const setStatus = async (status: number) => {
    setBusy(true);
    try {
      await api.put('/api/redemption/?status_only=true', { id: record.id, status });
      notify('resources.redemptions.notification.status_changed', { type: 'success' });
      refresh();
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const deleteCode = () => {
    setConfirming(false);
    remove(
      'redemption',
      { id: record.id, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify('resources.redemptions.notification.deleted', { type: 'success' });
          refresh();
        },
        onError: (error) => notify(messageOf(error), { type: 'error' }),
      },
    );
  };

  const disabled = busy || removing;
  const used = record.status === REDEMPTION_USED;
  return (
    <Stack direction="row" spacing={0.5} flexWrap="wrap" useFlexGap>
      <Button size="small" startIcon={<ContentCopyIcon />} onClick={() => void copy(record.key)}>
        {translate('resources.redemptions.actions.copy')}
      </Button>
      {record.status === REDEMPTION_DISABLED ? (
        <Button size="small" disabled={disabled} onClick={() => void setStatus(REDEMPTION_UNUSED)}>
          {translate('resources.redemptions.actions.enable')}
        </Button>
      ) : (
        <Button size="small" color="warning" disabled={disabled || used} onClick={() => void setStatus(REDEMPTION_DISABLED)}>
          {translate('resources.redemptions.actions.disable')}
        </Button>
      )}
      <SchemaEditButton resource="redemption" disabled={disabled || record.status !== REDEMPTION_UNUSED} />
      <Button size="small" color="error" disabled={disabled} onClick={() => setConfirming(true)}>
        {translate('resources.redemptions.actions.delete')}
      </Button>
      <Confirm
        isOpen={confirming}
        title="resources.redemptions.confirm.delete_title"
        content="resources.redemptions.confirm.delete_content"
        translateOptions={{ name: record.name }}
        onConfirm={deleteCode}
        onClose={() => setConfirming(false)}
      />
      {dialog}
    </Stack>
  );
}
