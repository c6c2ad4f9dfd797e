/**
 * "Clear invalid codes": after a confirmation, DELETE /api/redemption/invalid removes every used,
 * disabled and expired code; the list reloads and says how many went.
 */
import { useState } from 'react';
import { Button } from '@mui/material';
import DeleteSweepIcon from '@mui/icons-material/DeleteSweep';
import { Confirm, useNotify, useRefresh, useTranslate } from 'react-admin';
import { api } from '../../api/client';
import { messageOf } from '../shared/errors';

export function ClearInvalidButton() {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);

  const clear = async () => {
    setOpen(false);
    setBusy(true);
    try {
      const count = await api.delete<number>('/api/redemption/invalid');
      notify('resources.redemption.notification.invalid_cleared', { type: 'success', messageArgs: { smart_count: count } });
      refresh();
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button size="small" color="error" startIcon={<DeleteSweepIcon />} disabled={busy} onClick={() => setOpen(true)}>
        {translate('resources.redemption.actions.clear_invalid')}
      </Button>
      <Confirm
        isOpen={open}
        title="resources.redemption.confirm.clear_invalid_title"
        content="resources.redemption.confirm.clear_invalid_content"
        onConfirm={() => void clear()}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
