/**
 * An admin's view of a user's subscriptions, from the user's edit drawer: each with its plan, what
 * its period has left, status and end; invalidating an active one; binding a plan.
 */
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useNotify, useRecordContext, useTranslate } from 'react-admin';
import { useGateway } from '../../api/customMethods';
import { errorMessage } from '../../customPages/shared/errors';
import { formatQuota } from '../../status/status';
import { formatTimestamp } from '../schema';
import { AddQuotaButton } from '../user/AddQuotaButton';
import { SpendCapButton } from './SpendCapButton';

const T = 'subscriptions';

export function UserSubscriptionsButton() {
  const translate = useTranslate();
  const notify = useNotify();
  const gateway = useGateway();
  const queryClient = useQueryClient();
  const record = useRecordContext<{ id: number }>();
  const [open, setOpen] = useState(false);
  const [planId, setPlanId] = useState('');
  const userId = Number(record?.id ?? 0);
  const key = ['user-subscriptions', userId];
  const subs = useQuery({ queryKey: key, queryFn: () => gateway.getUserSubscriptions(userId), enabled: open && userId > 0 });
  const plans = useQuery({ queryKey: ['subscription-plans-all'], queryFn: () => gateway.getAllPlans(), enabled: open });
  if (!record) return null;

  const act = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      notify(done, { type: 'success' });
      await queryClient.invalidateQueries({ queryKey: key });
    } catch (err) {
      notify(errorMessage(err), { type: 'error' });
    }
  };

  return (
    <>
      <Button variant="outlined" size="small" onClick={() => setOpen(true)}>
        {translate(`${T}.admin_title`)}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="md">
        <DialogTitle>{translate(`${T}.admin_title`)}</DialogTitle>
        <DialogContent>
          {subs.data?.length === 0 && <Typography color="text.secondary">{translate(`${T}.none`)}</Typography>}
          <Table size="small" sx={{ display: 'block', overflowX: 'auto' }}>
            <TableBody>
              {subs.data?.map(({ subscription: s, plan }) => (
                <TableRow key={s.id}>
                  <TableCell>{plan?.title ?? `#${s.plan_id}`}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {translate(`${T}.of_total`, {
                      left: formatQuota(s.amount_total - s.amount_used),
                      total: formatQuota(s.amount_total),
                    })}
                  </TableCell>
                  <TableCell>{translate(`${T}.statuses.${s.status}`, { _: s.status })}</TableCell>
                  <TableCell>{translate(`${T}.sources.${s.source}`, { _: s.source })}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTimestamp(s.end_time)}</TableCell>
                  <TableCell>
                    {s.status === 'active' && (
                      <Button
                        size="small"
                        color="error"
                        onClick={() => void act(() => gateway.invalidateSubscription(s.id), `${T}.invalidated`)}
                      >
                        {translate(`${T}.invalidate`)}
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mt: 2 }}>
            <TextField
              select
              size="small"
              label={translate(`${T}.bind_plan`)}
              value={planId}
              onChange={(e) => setPlanId(e.target.value)}
              sx={{ minWidth: 220 }}
            >
              {(plans.data ?? []).map((p) => (
                <MenuItem key={p.id} value={String(p.id)}>
                  {p.title}
                </MenuItem>
              ))}
            </TextField>
            <Button
              variant="contained"
              disabled={planId === ''}
              onClick={() => void act(() => gateway.bindSubscription(userId, Number(planId)), `${T}.bound`)}
            >
              {translate(`${T}.bind`)}
            </Button>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{translate('app.action.confirm')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/** The user drawer's addon beside the balance: add quota, the user's subscriptions and spend cap. */
export function UserBillingButtons() {
  return (
    <Stack spacing={1}>
      <AddQuotaButton />
      <UserSubscriptionsButton />
      <SpendCapButton subject="user" />
    </Stack>
  );
}
