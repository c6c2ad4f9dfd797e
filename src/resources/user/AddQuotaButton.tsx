import { useState } from 'react';
import {
  Alert,
  AlertTitle,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  TextField,
  Typography,
} from '@mui/material';
import { useInput, useTranslate } from 'react-admin';
import { formatQuota } from '../../status/status';

/**
 * Adds (or, with a negative amount, takes away) quota in the edit form: shows old + delta = new
 * and refuses a result below zero. The form is saved as usual afterwards.
 */
export function AddQuotaButton() {
  const translate = useTranslate();
  const { field } = useInput({ source: 'quota' });
  const [open, setOpen] = useState(false);
  const [delta, setDelta] = useState('');
  const [invalid, setInvalid] = useState(false);
  const current = Math.trunc(Number(field.value)) || 0;
  const amount = Math.trunc(Number(delta)) || 0;
  const next = current + amount;

  const close = () => {
    setOpen(false);
    setDelta('');
    setInvalid(false);
  };
  const apply = () => {
    if (next < 0) {
      setInvalid(true);
      return;
    }
    field.onChange(next);
    close();
  };

  return (
    <>
      <Button variant="outlined" size="small" onClick={() => setOpen(true)}>
        {translate('resources.user.actions.add_quota')}
      </Button>
      <Dialog open={open} onClose={close} fullWidth maxWidth="xs">
        <DialogTitle>{translate('resources.user.quota_dialog.title')}</DialogTitle>
        <DialogContent>
          <Typography sx={{ mb: 2 }} data-testid="quota-preview">
            {`${formatQuota(current)} + ${formatQuota(amount)} = ${formatQuota(next)}`}
          </Typography>
          <TextField
            autoFocus
            fullWidth
            type="number"
            label={translate('resources.user.quota_dialog.amount')}
            value={delta}
            onChange={(event) => {
              setDelta(event.target.value);
              setInvalid(false);
            }}
            slotProps={{ htmlInput: { step: 1 } }}
          />
          {invalid && (
            <Alert severity="error" sx={{ mt: 2 }}>
              <AlertTitle>{translate('resources.user.quota_dialog.invalid_title')}</AlertTitle>
              {translate('resources.user.quota_dialog.negative')}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>{translate('app.action.cancel')}</Button>
          <Button variant="contained" onClick={apply}>
            {translate('app.action.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
