/** Redeeming a code (POST /api/user/topup), and the link where codes are sold (TopUpLink). */
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useGateway } from '../../api/customMethods';
import { formatQuota } from '../../status/status';
import { errorMessage } from '../shared/errors';

export function RedeemCard({ topUpLink, onRedeemed }: { topUpLink: string; onRedeemed: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [code, setCode] = useState('');

  const gateway = useGateway();
  const redeeming = useMutation({
    mutationFn: (key: string) => gateway.redeemCode(key),
    onSuccess: (quota) => {
      notify('wallet.redeem.success', { type: 'success', messageArgs: { amount: formatQuota(quota) } });
      setCode('');
      onRedeemed();
    },
    onError: (err: unknown) => notify(errorMessage(err), { type: 'error' }),
  });
  const busy = redeeming.isPending;

  const redeem = (event: FormEvent) => {
    event.preventDefault();
    const key = code.trim();
    if (!key) {
      notify('wallet.redeem.required', { type: 'error' });
      return;
    }
    redeeming.mutate(key);
  };

  const buy = () => {
    if (!topUpLink) notify('wallet.redeem.no_link', { type: 'error' });
    else window.open(topUpLink, '_blank', 'noopener,noreferrer');
  };

  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {translate('wallet.redeem.title')}
        </Typography>
        <Stack component="form" noValidate onSubmit={redeem} spacing={2}>
          <TextField
            label={translate('wallet.redeem.code')}
            placeholder={translate('wallet.redeem.placeholder')}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            size="small"
            fullWidth
            autoComplete="off"
          />
          <Stack direction="row" spacing={1}>
            <Button type="submit" variant="contained" disabled={busy}>
              {translate('wallet.redeem.submit')}
            </Button>
            <Button variant="outlined" onClick={buy}>
              {translate('wallet.redeem.buy')}
            </Button>
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
}
