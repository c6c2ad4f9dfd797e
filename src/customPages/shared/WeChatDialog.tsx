/**
 * WeChat: scan the official account's QR code, then type the code it replies with. Logs in
 * (GET /api/oauth/wechat, with the invitation code) or, in bind mode, binds the account to the
 * logged-in user (POST /api/oauth/wechat/bind {code}) and calls `onBound`.
 */
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
import { AFF_KEY } from './constants';
import { errorMessage } from './errors';

interface WeChatDialogProps {
  open: boolean;
  qrcode: string;
  onClose: () => void;
  /** 'bind' binds the WeChat account to the logged-in user instead of logging in. */
  mode?: 'login' | 'bind';
  /** Called after a successful bind. */
  onBound?: () => void;
}

export function WeChatDialog({ open, qrcode, onClose, mode = 'login', onBound }: WeChatDialogProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const binding = mode === 'bind';

  const submit = async () => {
    if (!code.trim()) {
      notify('pages.oauth.wechat_code_required', { type: 'warning' });
      return;
    }
    setBusy(true);
    try {
      if (binding) {
        await api.post<StoredUser>('/api/oauth/wechat/bind', { code: code.trim() });
        notify('pages.oauth.bound', { type: 'success' });
        setCode('');
        onClose();
        onBound?.();
      } else {
        const query = new URLSearchParams({ code: code.trim(), aff: localStorage.getItem(AFF_KEY) ?? '' });
        const user = await api.get<StoredUser>(`/api/oauth/wechat?${query}`);
        storeUser(user);
        notify('pages.login.success', { type: 'success' });
        onClose();
        void navigate('/');
      }
    } catch (err) {
      notify(errorMessage(err), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{translate(binding ? 'pages.personal.bindings.wechat_title' : 'pages.oauth.wechat_title')}</DialogTitle>
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
          {translate(binding ? 'pages.personal.bindings.submit' : 'pages.login.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
