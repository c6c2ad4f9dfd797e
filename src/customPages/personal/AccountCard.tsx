/** Display name, bound e-mail, system access token, password change and account deletion. */
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { SelfUser } from '../../../server/users/schemas';
import { storedUser, storeUser } from '../../api/client';
import { useGateway } from '../../api/customMethods';
import { errorMessage } from '../shared/errors';
import { useClipboard } from '../shared/useClipboard';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { DeleteAccountDialog } from './DeleteAccountDialog';
import { EmailBindDialog } from './EmailBindDialog';

export function AccountCard({ user, onChange }: { user: SelfUser; onChange: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { copy, dialog } = useClipboard();
  const [displayName, setDisplayName] = useState(user.display_name);
  const [accessToken, setAccessToken] = useState('');
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const [bindOpen, setBindOpen] = useState(false);

  const gateway = useGateway();
  const failed = (err: unknown) => notify(errorMessage(err), { type: 'error' });
  const profile = useMutation({
    mutationFn: (name: string) => gateway.updateSelf({ display_name: name }),
    onSuccess: (updated) => {
      const stored = storedUser();
      // The header reads the stored user; keep its display name in step.
      if (stored && updated) storeUser({ ...stored, display_name: updated.display_name });
      notify('pages.personal.account.profile_saved', { type: 'success' });
      onChange();
    },
    onError: failed,
  });
  const saveDisplayName = () => profile.mutate(displayName.trim());

  const token = useMutation({
    mutationFn: () => gateway.newAccessToken(),
    onSuccess: async (created) => {
      setAccessToken(created);
      await copy(created, 'pages.personal.account.token_copied');
    },
    onError: failed,
  });
  const generateToken = () => token.mutate();

  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate('pages.personal.account.title')}
        </Typography>
        <Stack spacing={2}>
          <TextField
            label={translate('pages.personal.account.username')}
            value={user.username}
            size="small"
            slotProps={{ htmlInput: { readOnly: true } }}
          />
          <Stack direction="row" spacing={1}>
            <TextField
              label={translate('pages.personal.account.display_name')}
              value={displayName}
              onChange={(e) => setDisplayName(e.target.value)}
              size="small"
              fullWidth
            />
            <Button variant="outlined" onClick={saveDisplayName} disabled={displayName.trim() === user.display_name}>
              {translate('pages.common.save')}
            </Button>
          </Stack>
          <Stack direction="row" spacing={1}>
            <TextField
              label={translate('pages.personal.account.email')}
              value={user.email || translate('pages.personal.account.email_unbound')}
              size="small"
              fullWidth
              slotProps={{ htmlInput: { readOnly: true } }}
            />
            <Button variant="outlined" onClick={() => setBindOpen(true)} sx={{ whiteSpace: 'nowrap' }}>
              {translate(user.email ? 'pages.personal.bind_email.change' : 'pages.personal.bind_email.bind')}
            </Button>
          </Stack>
          <Divider />
          <Typography variant="body2" color="text.secondary">
            {translate('pages.personal.account.token_hint')}
          </Typography>
          {accessToken && (
            <TextField
              label={translate('pages.personal.account.token')}
              value={accessToken}
              size="small"
              slotProps={{ htmlInput: { readOnly: true } }}
            />
          )}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
            <Button variant="outlined" onClick={generateToken}>
              {translate('pages.personal.account.generate_token')}
            </Button>
            <Button variant="outlined" onClick={() => setPasswordOpen(true)}>
              {translate('pages.personal.password.title')}
            </Button>
            <Button variant="outlined" color="error" onClick={() => setDeleteOpen(true)}>
              {translate('pages.personal.delete.title')}
            </Button>
          </Stack>
        </Stack>
      </CardContent>
      {passwordOpen && <ChangePasswordDialog open onClose={() => setPasswordOpen(false)} />}
      {bindOpen && <EmailBindDialog onClose={() => setBindOpen(false)} onBound={onChange} />}
      {deleteOpen && <DeleteAccountDialog open username={user.username} onClose={() => setDeleteOpen(false)} />}
      {dialog}
    </Card>
  );
}
