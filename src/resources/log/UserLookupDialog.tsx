import {
  Alert,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableRow,
} from '@mui/material';
import { useGetOne, useTranslate } from 'react-admin';
import type { PublicUser } from '../../../server/users/repository';
import { formatQuota } from '../../status/status';

type UserRecord = PublicUser & { id: number };

/** Admins: who made a log row (the user resource's getOne, GET /api/user/{id}), opened from the username cell. */
export function UserLookupDialog({ userId, onClose }: { userId: number | null; onClose: () => void }) {
  const translate = useTranslate();
  const { data, error, isPending } = useGetOne<UserRecord>(
    'user',
    { id: userId ?? 0 },
    { enabled: userId !== null, retry: false },
  );
  const loading = userId !== null && isPending;
  const rows: [string, string | number][] = data
    ? [
        ['username', data.username],
        ['display_name', data.display_name],
        ['group', data.group],
        ['quota', formatQuota(data.quota)],
        ['used_quota', formatQuota(data.used_quota)],
        ['request_count', data.request_count],
      ]
    : [];
  return (
    <Dialog open={userId !== null} onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{translate('resources.log.lookup.title')}</DialogTitle>
      <DialogContent>
        {loading && <CircularProgress size={24} />}
        {!loading && error && <Alert severity="error">{translate(error.message, { _: error.message })}</Alert>}
        {!loading && data && (
          <Table size="small">
            <TableBody>
              {rows.map(([key, value]) => (
                <TableRow key={key}>
                  <TableCell component="th" scope="row">
                    {translate(`resources.log.lookup.${key}`)}
                  </TableCell>
                  <TableCell>{value}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
