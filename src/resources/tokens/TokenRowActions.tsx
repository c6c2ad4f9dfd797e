import { useState } from 'react';
import { Button, Stack } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Confirm, useDelete, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { api } from '../../api/client';
import { useClipboard } from '../../customPages/shared/useClipboard';
import { SchemaEditButton } from '../schema';
import { revealKey } from './keys';
import { TokenChatButton } from './TokenChatButton';
import { TOKEN_DISABLED, TOKEN_ENABLED, type TokenRecord } from './types';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'app.error.request_failed';
}

/** Copy key, chat, enable / disable, edit and delete. */
export function TokenRowActions() {
  const record = useRecordContext<TokenRecord>();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const { copy, dialog } = useClipboard();
  const [remove, { isPending: removing }] = useDelete<TokenRecord>();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  if (!record) return null;

  const copyKey = async () => {
    setBusy(true);
    try {
      await copy(await revealKey(record.id));
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  // The server refuses to enable an expired or exhausted token and says why.
  const setStatus = async (status: number) => {
    setBusy(true);
    try {
      await api.put('/api/token/?status_only=true', { id: record.id, status });
      notify('resources.tokens.notification.status_changed', { type: 'success' });
      refresh();
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const deleteToken = () => {
    setConfirming(false);
    remove(
      'token',
      { id: record.id, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify('resources.tokens.notification.deleted', { type: 'success' });
          refresh();
        },
        onError: (error) => notify(messageOf(error), { type: 'error' }),
      },
    );
  };

  const disabled = busy || removing;
  const enabled = record.status === TOKEN_ENABLED;
  return (
    <Stack direction="row" spacing={0.5} flexWrap="wrap" useFlexGap>
      <Button size="small" startIcon={<ContentCopyIcon />} disabled={disabled} onClick={() => void copyKey()}>
        {translate('resources.tokens.actions.copy')}
      </Button>
      <TokenChatButton record={record} />
      {enabled ? (
        <Button size="small" color="warning" disabled={disabled} onClick={() => void setStatus(TOKEN_DISABLED)}>
          {translate('resources.tokens.actions.disable')}
        </Button>
      ) : (
        <Button size="small" disabled={disabled} onClick={() => void setStatus(TOKEN_ENABLED)}>
          {translate('resources.tokens.actions.enable')}
        </Button>
      )}
      <SchemaEditButton resource="token" disabled={disabled} />
      <Button size="small" color="error" disabled={disabled} onClick={() => setConfirming(true)}>
        {translate('resources.tokens.actions.delete')}
      </Button>
      <Confirm
        isOpen={confirming}
        title="resources.tokens.confirm.delete_title"
        content="resources.tokens.confirm.delete_content"
        translateOptions={{ name: record.name }}
        onConfirm={deleteToken}
        onClose={() => setConfirming(false)}
      />
      {dialog}
    </Stack>
  );
}
