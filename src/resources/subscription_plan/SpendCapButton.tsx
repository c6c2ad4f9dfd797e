/**
 * A token's or a user's spend cap, from their edit drawer: a dialog reading the cap (GET
 * /api/spend_cap/…) and saving period and limit at once (a limit of 0 removes it).
 */
import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Stack, TextField } from '@mui/material';
import { useNotify, useRecordContext, useTranslate } from 'react-admin';
import { useGateway } from '../../api/customMethods';
import type { CapPeriod } from '../../api/subscriptionMethods';
import { errorMessage } from '../../customPages/shared/errors';

const PERIODS: CapPeriod[] = ['daily', 'weekly', 'monthly'];
const T = 'subscriptions';

export function SpendCapButton({ subject }: { subject: 'token' | 'user' }) {
  const translate = useTranslate();
  const notify = useNotify();
  const gateway = useGateway();
  const record = useRecordContext<{ id: number }>();
  const [open, setOpen] = useState(false);
  const [period, setPeriod] = useState<CapPeriod>('daily');
  const [limit, setLimit] = useState('0');
  if (!record) return null;

  const show = async () => {
    setOpen(true);
    try {
      const cap = await gateway.getSpendCap(subject, Number(record.id));
      setPeriod(cap?.period ?? 'daily');
      setLimit(String(cap?.limit ?? 0));
    } catch (err) {
      notify(errorMessage(err), { type: 'error' });
    }
  };
  const save = async () => {
    try {
      await gateway.setSpendCap(subject, Number(record.id), { period, limit: Math.max(0, Math.trunc(Number(limit)) || 0) });
      notify(`${T}.cap_saved`, { type: 'success' });
      setOpen(false);
    } catch (err) {
      notify(errorMessage(err), { type: 'error' });
    }
  };

  return (
    <>
      <Button variant="outlined" size="small" onClick={() => void show()}>
        {translate(`${T}.cap_title`)}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="xs">
        <DialogTitle>{translate(`${T}.cap_title`)}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              select
              label={translate(`${T}.cap_period`)}
              value={period}
              onChange={(e) => setPeriod(e.target.value as CapPeriod)}
            >
              {PERIODS.map((p) => (
                <MenuItem key={p} value={p}>
                  {translate(`${T}.cap_periods.${p}`)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              type="number"
              label={translate(`${T}.cap_limit`)}
              value={limit}
              onChange={(e) => setLimit(e.target.value)}
              slotProps={{ htmlInput: { min: 0, step: 1 } }}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{translate('app.action.cancel')}</Button>
          <Button variant="contained" onClick={() => void save()}>
            {translate(`${T}.cap_save`)}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/** The token drawer's addon. */
export const TokenSpendCapButton = () => <SpendCapButton subject="token" />;
