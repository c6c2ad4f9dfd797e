/** The invitation link, what it has earned, and the transfer of earnings into the balance. */
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { SelfUser } from '../../../server/users/schemas';
import { useGateway } from '../../api/customMethods';
import { formatQuota } from '../../status/status';
import { errorMessage } from '../shared/errors';
import { useClipboard } from '../shared/useClipboard';
import { TransferDialog } from './TransferDialog';

export function inviteLink(affCode: string): string {
  return `${window.location.origin}/register?aff=${encodeURIComponent(affCode)}`;
}

export function InviteCard({ user, quotaPerUnit, onChange }: { user: SelfUser; quotaPerUnit: number; onChange: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { copy, dialog } = useClipboard();
  const [transferOpen, setTransferOpen] = useState(false);

  const gateway = useGateway();
  const aff = useQuery({ queryKey: ['my-aff-code'], queryFn: () => gateway.getAffCode(), retry: false });
  const { error } = aff;
  useEffect(() => {
    if (error) notify(errorMessage(error), { type: 'error' });
  }, [error, notify]);

  const link = aff.data ? inviteLink(aff.data) : '';
  const earnings = [
    { key: 'pending', value: formatQuota(user.aff_quota, quotaPerUnit) },
    { key: 'total', value: formatQuota(user.aff_history_quota, quotaPerUnit) },
    { key: 'count', value: String(user.aff_count) },
  ];

  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate('pages.personal.invite.title')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mb: 2 }}>
          <TextField
            label={translate('pages.personal.invite.link')}
            value={link}
            size="small"
            fullWidth
            slotProps={{ htmlInput: { readOnly: true } }}
          />
          <Button variant="outlined" disabled={!link} onClick={() => copy(link, 'pages.personal.invite.copied')}>
            {translate('pages.common.copy')}
          </Button>
        </Stack>
        <Grid container spacing={2}>
          {earnings.map((item) => (
            <Grid key={item.key} size={{ xs: 4 }}>
              <Typography variant="body2" color="text.secondary">
                {translate(`pages.personal.invite.${item.key}`)}
              </Typography>
              <Typography variant="h6" component="p">
                {item.value}
              </Typography>
            </Grid>
          ))}
        </Grid>
        <Button variant="contained" sx={{ mt: 2 }} disabled={user.aff_quota <= 0} onClick={() => setTransferOpen(true)}>
          {translate('pages.personal.invite.transfer')}
        </Button>
      </CardContent>
      {transferOpen && (
        <TransferDialog
          open
          available={user.aff_quota}
          quotaPerUnit={quotaPerUnit}
          onClose={() => setTransferOpen(false)}
          onDone={onChange}
        />
      )}
      {dialog}
    </Card>
  );
}
