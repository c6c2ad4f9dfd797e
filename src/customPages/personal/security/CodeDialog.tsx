/** Asks for a code (turning two-factor sign-in off, or making new backup codes) and hands it to `onSubmit`. */
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';

interface CodeDialogProps {
  open: boolean;
  title: string;
  hint: string;
  busy: boolean;
  onClose: () => void;
  onSubmit: (code: string) => void;
}

export function CodeDialog({ open, title, hint, busy, onClose, onSubmit }: CodeDialogProps) {
  const translate = useTranslate();
  const [code, setCode] = useState('');
  const close = () => {
    setCode('');
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} maxWidth="xs" fullWidth>
      <DialogTitle>{translate(title)}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate(hint)}
        </Typography>
        <TextField
          label={translate('security.login.code')}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoComplete="one-time-code"
          autoFocus
          fullWidth
          margin="dense"
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{translate('pages.common.cancel')}</Button>
        <Button variant="contained" disabled={busy || !code.trim()} onClick={() => onSubmit(code.trim())}>
          {translate('security.personal.code_dialog.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
