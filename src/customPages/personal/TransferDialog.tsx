/** Moves invitation earnings into the balance; at least one quota unit at a time. */
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import type { AffTransferBody, AffTransferResult } from '../../../server/users/schemas';
import { api } from '../../api/client';
import { formatQuota } from '../../status/status';
import { errorMessage } from '../shared/errors';

interface TransferDialogProps {
  open: boolean;
  available: number;
  quotaPerUnit: number;
  onClose: () => void;
  onDone: () => void;
}

export function TransferDialog({ open, available, quotaPerUnit, onClose, onDone }: TransferDialogProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const [amount, setAmount] = useState(String(available));
  const [busy, setBusy] = useState(false);
  const quota = Math.floor(Number(amount));

  const submit = async () => {
    if (!Number.isFinite(quota) || quota < quotaPerUnit) {
      notify('pages.personal.invite.transfer_min', {
        type: 'warning',
        messageArgs: { min: formatQuota(quotaPerUnit, quotaPerUnit) },
      });
      return;
    }
    setBusy(true);
    try {
      const body: AffTransferBody = { quota };
      await api.post<AffTransferResult>('/api/user/aff_transfer', body);
      notify('pages.personal.invite.transfer_done', { type: 'success' });
      onDone();
      onClose();
    } catch (err) {
      notify(errorMessage(err), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{translate('pages.personal.invite.transfer_title')}</DialogTitle>
      <DialogContent>
        <TextField
          label={translate('pages.personal.invite.available')}
          value={formatQuota(available, quotaPerUnit)}
          fullWidth
          margin="dense"
          slotProps={{ htmlInput: { readOnly: true } }}
        />
        <TextField
          label={translate('pages.personal.invite.transfer_amount')}
          type="number"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          helperText={translate('pages.personal.invite.transfer_hint', {
            value: Number.isFinite(quota) ? formatQuota(quota, quotaPerUnit) : '-',
            min: formatQuota(quotaPerUnit, quotaPerUnit),
          })}
          fullWidth
          margin="dense"
          slotProps={{ htmlInput: { min: quotaPerUnit, step: 1 } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('pages.common.cancel')}</Button>
        <Button variant="contained" onClick={submit} disabled={busy}>
          {translate('pages.common.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
