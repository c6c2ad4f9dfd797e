import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Chip, Stack } from '@mui/material';
import { useListContext, useTranslate } from 'react-admin';
import { useGateway } from '../../api/customMethods';
import { currentRole } from '../../authProvider/access';
import { isAdmin } from '../../authProvider/roles';
import { formatQuota } from '../../status/status';
import { abbreviate, logQuery } from './format';

/** Quota used, requests and tokens per minute over the list's current filters (GET …/stat). */
export function LogStatHeader() {
  const translate = useTranslate();
  // The stored role, as the list's own endpoint reads it.
  const role = currentRole();
  const { filterValues } = useListContext();
  const query = logQuery(filterValues as Record<string, unknown>).toString();
  const scope = isAdmin(role) ? 'all' : 'self';
  const gateway = useGateway();
  const { data: stat, error } = useQuery({
    queryKey: ['log-stat', scope, query],
    queryFn: () => gateway.getLogStat(scope, query),
    // The figures of the previous filters stay while the new ones load.
    placeholderData: keepPreviousData,
    retry: false,
  });
  const figures = [
    { key: 'quota', value: stat ? formatQuota(stat.quota) : '–', color: 'primary' as const },
    { key: 'rpm', value: stat ? abbreviate(stat.rpm) : '–', color: 'default' as const },
    { key: 'tpm', value: stat ? abbreviate(stat.tpm) : '–', color: 'default' as const },
  ];
  return (
    <Stack direction="row" spacing={1} sx={{ px: 2, py: 1 }} flexWrap="wrap" useFlexGap alignItems="center">
      {figures.map(({ key, value, color }) => (
        <Chip
          key={key}
          color={color}
          variant="outlined"
          data-testid={`log-stat-${key}`}
          label={translate(`resources.log.stat.${key}`, { value })}
        />
      ))}
      {error && (
        <Alert severity="error" sx={{ py: 0 }}>
          {translate(error.message, { _: error.message })}
        </Alert>
      )}
    </Stack>
  );
}
