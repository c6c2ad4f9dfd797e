/** WeChat login: scan the official account's QR code, then type the code it replies with. */
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { api, storeUser, type StoredUser } from '../../api/client';
import { errorMessage } from './errors';

export function WeChatDialog({ open, qrcode, onClose }: { open: boolean; qrcode: string; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    if (!code.trim()) {
      notify('pages.oauth.wechat_code_required', { type: 'warning' });
      return;
    }
    setBusy(true);
    try {
      const user = await api.get<StoredUser>(`/api/oauth/wechat?code=${encodeURIComponent(code.trim())}`);
      storeUser(user);
      notify('pages.login.success', { type: 'success' });
      onClose();
      navigate('/');
    } catch (err) {
      notify(errorMessage(err), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{translate('pages.oauth.wechat_title')}</DialogTitle>
      <DialogContent>
        {qrcode && (
          <Box sx={{ display: 'flex', justifyContent: 'center', mb: 2 }}>
            <img src={qrcode} alt={translate('pages.oauth.wechat_qrcode')} style={{ width: 200, height: 200 }} />
          </Box>
        )}
        <Typography variant="body2" color="text.secondary" gutterBottom>
          {translate('pages.oauth.wechat_hint')}
        </Typography>
        <TextField
          label={translate('pages.oauth.wechat_code')}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          fullWidth
          margin="dense"
          autoFocus
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('pages.common.cancel')}</Button>
        <Button variant="contained" onClick={submit} disabled={busy}>
          {translate('pages.login.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
