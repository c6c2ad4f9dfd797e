/**
 * "Clear invalid codes": after a confirmation, DELETE /api/redemption/invalid removes every used,
 * disabled and expired code; the list reloads and says how many went.
 */
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Button } from '@mui/material';
import DeleteSweepIcon from '@mui/icons-material/DeleteSweep';
import { Confirm, useNotify, useRefresh, useTranslate } from 'react-admin';
import { useGateway } from '../../api/customMethods';
import { messageOf } from '../shared/errors';

export function ClearInvalidButton() {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const gateway = useGateway();
  const clearing = useMutation({
    mutationFn: () => gateway.clearInvalidRedemptions(),
    onSuccess: (count) => {
      notify('resources.redemption.notification.invalid_cleared', { type: 'success', messageArgs: { smart_count: count } });
      refresh();
    },
    onError: (error: unknown) => notify(messageOf(error), { type: 'error' }),
  });
  const busy = clearing.isPending;

  const clear = () => {
    setOpen(false);
    clearing.mutate();
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
        onConfirm={clear}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
