import { Chip, Stack, Tooltip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { formatQuota } from '../../status/status';
import { USER_STATUS_ACTIVE, USER_STATUS_BANNED, type UserRecord } from './types';

/** Remaining quota, used quota and call count. */
export function StatsCell({ record }: { record: UserRecord }) {
  const translate = useTranslate();
  return (
    <Stack direction="row" spacing={0.5} flexWrap="wrap" useFlexGap>
      <Tooltip title={translate('resources.user.stats.remaining')}>
        <Chip size="small" color="primary" variant="outlined" label={formatQuota(record.quota)} />
      </Tooltip>
      <Tooltip title={translate('resources.user.stats.used')}>
        <Chip size="small" variant="outlined" label={formatQuota(record.used_quota)} />
      </Tooltip>
      <Tooltip title={translate('resources.user.stats.requests')}>
        <Chip size="small" variant="outlined" label={record.request_count} />
      </Tooltip>
    </Stack>
  );
}

/** Invited count, total invitation earnings, and who invited this user. */
export function InviteCell({ record }: { record: UserRecord }) {
  const translate = useTranslate();
  return (
    <Stack direction="row" spacing={0.5} flexWrap="wrap" useFlexGap>
      <Tooltip title={translate('resources.user.invite.count')}>
        <Chip size="small" variant="outlined" label={record.aff_count} />
      </Tooltip>
      <Tooltip title={translate('resources.user.invite.earnings')}>
        <Chip size="small" variant="outlined" label={formatQuota(record.aff_history_quota)} />
      </Tooltip>
      <Chip
        size="small"
        variant="outlined"
        label={
          record.inviter_id
            ? translate('resources.user.invite.inviter', { id: record.inviter_id })
            : translate('resources.user.invite.no_inviter')
        }
      />
    </Stack>
  );
}

/** The status label; a deregistered user shows as such whatever its status. */
export function StatusCell({ record }: { record: UserRecord }) {
  const translate = useTranslate();
  if (record.DeletedAt) return <Chip size="small" label={translate('resources.user.statuses.deleted')} />;
  const [key, color] =
    record.status === USER_STATUS_ACTIVE
      ? (['active', 'success'] as const)
      : record.status === USER_STATUS_BANNED
        ? (['banned', 'error'] as const)
        : (['unknown', 'warning'] as const);
  return <Chip size="small" color={color} variant="outlined" label={translate(`resources.user.statuses.${key}`)} />;
}
