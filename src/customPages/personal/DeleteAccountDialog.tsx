/**
 * Deregisters the signed-in user once they type their own username (and, for an account with a
 * second factor, verify afresh); then logs out.
 */
import { useState } from 'react';
import { useLogout, useNotify, useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useGateway } from '../../api/customMethods';
import { useFreshVerification } from './security/useFreshVerification';

export function DeleteAccountDialog({ open, username, onClose }: { open: boolean; username: string; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const logout = useLogout();
  const gateway = useGateway();
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const { attempt, dialog } = useFreshVerification();

  const submit = async () => {
    if (typed !== username) {
      notify('pages.personal.delete.mismatch', { type: 'warning' });
      return;
    }
    setBusy(true);
    await attempt(async () => {
      await gateway.deleteSelf();
      notify('pages.personal.delete.done', { type: 'success' });
      onClose();
      await logout({}, '/login');
    });
    setBusy(false);
  };

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{translate('pages.personal.delete.title')}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          {translate('pages.personal.delete.warning')}
        </Alert>
        <TextField
          label={translate('pages.personal.delete.confirm_label', { username })}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          autoComplete="off"
          fullWidth
          margin="dense"
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('pages.common.cancel')}</Button>
        <Button variant="contained" color="error" onClick={submit} disabled={busy}>
          {translate('pages.personal.delete.submit')}
        </Button>
      </DialogActions>
      {dialog}
    </Dialog>
  );
}
