/** Change password: original, new and confirmation; PUT /api/user/self {original_password, password}. */
import { useState, type ChangeEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useGateway } from '../../api/customMethods';
import { errorMessage } from '../shared/errors';
import { validatePasswordChange, type PasswordChange } from './validatePassword';

export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [form, setForm] = useState<PasswordChange>({ original: '', password: '', confirm: '' });
  const set = (field: keyof PasswordChange) => (e: ChangeEvent<HTMLInputElement>) =>
    setForm((f) => ({ ...f, [field]: e.target.value }));

  const gateway = useGateway();
  const change = useMutation({
    mutationFn: (next: PasswordChange) => gateway.updateSelf({ original_password: next.original, password: next.password }),
    onSuccess: () => {
      notify('pages.personal.password.done', { type: 'success' });
      onClose();
    },
    onError: (err: unknown) => notify(errorMessage(err), { type: 'error' }),
  });
  const busy = change.isPending;

  const submit = () => {
    const problem = validatePasswordChange(form);
    if (problem) {
      notify(problem, { type: 'warning' });
      return;
    }
    change.mutate(form);
  };

  const field = (name: keyof PasswordChange, autoComplete: string) => (
    <TextField
      label={translate(`pages.personal.password.${name}`)}
      type="password"
      value={form[name]}
      onChange={set(name)}
      autoComplete={autoComplete}
      fullWidth
      margin="dense"
    />
  );

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{translate('pages.personal.password.title')}</DialogTitle>
      <DialogContent>
        {field('original', 'current-password')}
        {field('password', 'new-password')}
        {field('confirm', 'new-password')}
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
