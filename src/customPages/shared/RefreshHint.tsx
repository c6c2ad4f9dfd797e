/**
 * Says how often the hourly totals behind the dashboard and channel statistics are written
 * (DataExportInterval, from the site status): calls made since the last write are not in them yet,
 * which would otherwise read as "no data".
 */
import { useTranslate } from 'react-admin';
import Typography from '@mui/material/Typography';
import { useStatus } from '../../status/status';

export function RefreshHint() {
  const translate = useTranslate();
  const { status } = useStatus();
  const minutes = status?.data_export_interval;
  if (!minutes || minutes <= 0) return null;
  return (
    <Typography variant="body2" color="text.secondary" data-testid="refresh-hint">
      {translate('dashboard.refresh_hint', { smart_count: minutes })}
    </Typography>
  );
}
