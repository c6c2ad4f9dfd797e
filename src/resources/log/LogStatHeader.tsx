import { useRef } from 'react';
import { Alert, Chip, Stack } from '@mui/material';
import { useListContext, useTranslate } from 'react-admin';
import { currentRole } from '../../authProvider';
import { formatQuota } from '../../status/status';
import { logStatPath } from './endpoints';
import { abbreviate, logQuery } from './format';
import type { LogStat } from './types';
import { useApiGet } from './useApiGet';

/** Quota used, requests and tokens per minute over the list's current filters (GET …/stat). */
export function LogStatHeader() {
  const translate = useTranslate();
  // The stored role, as the list's own endpoint reads it.
  const role = currentRole();
  const { filterValues } = useListContext();
  const query = logQuery(filterValues as Record<string, unknown>).toString();
  const { data, error } = useApiGet<LogStat>(`${logStatPath(role)}${query ? `?${query}` : ''}`);
  // The figures of the previous filters stay while the new ones load.
  const last = useRef<LogStat | undefined>(undefined);
  if (data) last.current = data;
  const stat = last.current;
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
          {translate(error, { _: error })}
        </Alert>
      )}
    </Stack>
  );
}
