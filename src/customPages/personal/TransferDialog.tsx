/** Moves invitation earnings into the balance; at least one quota unit at a time. */
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useGateway } from '../../api/customMethods';
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
  const quota = Math.floor(Number(amount));

  const gateway = useGateway();
  const transfer = useMutation({
    mutationFn: (moved: number) => gateway.transferAffQuota(moved),
    onSuccess: () => {
      notify('pages.personal.invite.transfer_done', { type: 'success' });
      onDone();
      onClose();
    },
    onError: (err: unknown) => notify(errorMessage(err), { type: 'error' }),
  });
  const busy = transfer.isPending;

  const submit = () => {
    if (!Number.isFinite(quota) || quota < quotaPerUnit) {
      notify('pages.personal.invite.transfer_min', {
        type: 'warning',
        messageArgs: { min: formatQuota(quotaPerUnit, quotaPerUnit) },
      });
      return;
    }
    transfer.mutate(quota);
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
