/** Change password: original, new and confirmation; PUT /api/user/self {original_password, password}. */
import { useState, type ChangeEvent } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import type { UpdateSelfBody } from '../../../server/users/schemas';
import { api } from '../../api/client';
import { errorMessage } from '../shared/errors';
import { validatePasswordChange, type PasswordChange } from './validatePassword';

export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [form, setForm] = useState<PasswordChange>({ original: '', password: '', confirm: '' });
  const [busy, setBusy] = useState(false);
  const set = (field: keyof PasswordChange) => (e: ChangeEvent<HTMLInputElement>) =>
    setForm((f) => ({ ...f, [field]: e.target.value }));

  const submit = async () => {
    const problem = validatePasswordChange(form);
    if (problem) {
      notify(problem, { type: 'warning' });
      return;
    }
    setBusy(true);
    try {
      const body: UpdateSelfBody = { original_password: form.original, password: form.password };
      await api.put('/api/user/self', body);
      notify('pages.personal.password.done', { type: 'success' });
      onClose();
    } catch (err) {
      notify(errorMessage(err), { type: 'error' });
    } finally {
      setBusy(false);
    }
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
