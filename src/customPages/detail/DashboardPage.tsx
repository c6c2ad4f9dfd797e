/**
 * /detail, the data dashboard: spend, calls and tokens by model over time, from the
 * hourly totals, grouped by hour, day or week. People see their own usage; admins see every
 * user's, or one user's by name. Shown when data export is enabled.
 */
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import SearchIcon from '@mui/icons-material/Search';
import { storedUser } from '../../api/client';
import { useGateway } from '../../api/customMethods';
import { isAdmin } from '../../authProvider/roles';
import { storedStatus, useStatus } from '../../status/status';
import { RefreshHint } from '../shared/RefreshHint';
import { errorMessage } from '../shared/errors';
import { Legend, PALETTE, StackedBarChart } from './StackedBarChart';
import {
  GRANULARITIES,
  METRICS,
  abbreviate,
  aggregate,
  bucketLabel,
  chartDollars,
  dataQuery,
  defaultRange,
  formatSpend,
  fromLocalInput,
  isGranularity,
  toLocalInput,
  type DataFilter,
  type Granularity,
  type Metric,
  type QuotaDataRow,
} from './usage';

const D = 'dashboard.';
const DEFAULT_QUOTA_PER_UNIT = 500_000;
const NO_ROWS: QuotaDataRow[] = [];

interface Form {
  start: string;
  end: string;
  username: string;
}

function initialGranularity(): Granularity {
  const stored = storedStatus()?.data_export_default_time;
  return isGranularity(stored) ? stored : 'hour';
}

function initialForm(granularity: Granularity): Form {
  const range = defaultRange(granularity);
  return { start: toLocalInput(range.start), end: toLocalInput(range.end), username: '' };
}

export default function DashboardPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const { status } = useStatus();
  const admin = isAdmin(storedUser()?.role ?? 0);
  const enabled = status ? status.enable_data_export : localStorage.getItem('enable_data_export') !== 'false';
  const quotaPerUnit = status?.quota_per_unit || DEFAULT_QUOTA_PER_UNIT;
  const inCurrency = status?.display_in_currency ?? true;
  const [granularity, setGranularity] = useState<Granularity>(initialGranularity);
  const [form, setForm] = useState<Form>(() => initialForm(granularity));
  const filterOf = (current: Form): DataFilter | null => {
    const start = fromLocalInput(current.start);
    const end = fromLocalInput(current.end);
    if (start === null || end === null || start > end) return null;
    return { start, end, granularity, username: current.username };
  };

  // The range last queried: the first with the defaults, later ones when Query is pressed.
  const [applied, setApplied] = useState(() => filterOf(form));
  const gateway = useGateway();
  const appliedQuery = applied ? dataQuery(applied, admin) : '';
  const data = useQuery({
    queryKey: ['quota-data', admin, appliedQuery],
    // The rows carry the user they were read for, so the scope line names whose rows are shown.
    queryFn: async () => ({
      rows: await gateway.getQuotaData(admin ? 'all' : 'self', appliedQuery),
      username: applied?.username.trim() ?? '',
    }),
    enabled: enabled && applied !== null,
    retry: false,
    placeholderData: keepPreviousData,
  });
  const rows = data.data?.rows ?? NO_ROWS;
  const loading = data.isFetching;
  const { error, refetch } = data;
  const shownUser = data.data?.username ?? '';
  useEffect(() => {
    if (error) notify(errorMessage(error), { type: 'error' });
  }, [error, notify]);

  const query = (event: FormEvent) => {
    event.preventDefault();
    const filter = filterOf(form);
    if (!filter) {
      notify(`${D}bad_range`, { type: 'error' });
      return;
    }
    if (applied && dataQuery(filter, admin) === appliedQuery) void refetch();
    else setApplied(filter);
  };

  const usage = useMemo(() => aggregate(rows, granularity), [rows, granularity]);
  const models = usage.series.quota.map((s) => s.model);
  const colorOf = (model: string) => PALETTE[models.indexOf(model) % PALETTE.length] ?? PALETTE[0] ?? '#1976d2';
  const labels = usage.buckets.map((b) => bucketLabel(b, granularity));
  const format: Record<Metric, (value: number) => string> = {
    quota: (q) => (inCurrency ? chartDollars(q, quotaPerUnit) : abbreviate(q)),
    count: abbreviate,
    token_used: abbreviate,
  };
  const totalText: Record<Metric, string> = {
    quota: formatSpend(usage.totals.quota, quotaPerUnit, inCurrency),
    count: abbreviate(usage.totals.count),
    token_used: abbreviate(usage.totals.token_used),
  };
  const set = (field: keyof Form, value: string) => setForm((f) => ({ ...f, [field]: value }));

  if (!enabled) {
    return (
      <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 } }}>
        <Typography variant="h5" component="h1">
          {translate(`${D}title`)}
        </Typography>
        <Alert severity="info">{translate(`${D}disabled`)}</Alert>
      </Stack>
    );
  }

  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 } }}>
      <Typography variant="h5" component="h1">
        {translate(`${D}title`)}
      </Typography>
      <Paper sx={{ p: 2 }}>
        <Stack component="form" onSubmit={query} direction="row" spacing={2} flexWrap="wrap" useFlexGap alignItems="center">
          <TextField
            type="datetime-local"
            size="small"
            fullWidth={false}
            label={translate(`${D}start`)}
            value={form.start}
            onChange={(e) => set('start', e.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            type="datetime-local"
            size="small"
            fullWidth={false}
            label={translate(`${D}end`)}
            value={form.end}
            onChange={(e) => set('end', e.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            select
            size="small"
            fullWidth={false}
            label={translate(`${D}granularity`)}
            value={granularity}
            onChange={(e) => setGranularity(e.target.value as Granularity)}
            sx={{ minWidth: 120 }}
          >
            {GRANULARITIES.map((g) => (
              <MenuItem key={g} value={g}>
                {translate(`${D}granularities.${g}`)}
              </MenuItem>
            ))}
          </TextField>
          {admin && (
            <TextField
              size="small"
              fullWidth={false}
              label={translate(`${D}username`)}
              placeholder={translate(`${D}all_users`)}
              value={form.username}
              onChange={(e) => set('username', e.target.value)}
            />
          )}
          <Button type="submit" variant="contained" startIcon={<SearchIcon />} disabled={loading}>
            {translate(`${D}query`)}
          </Button>
        </Stack>
      </Paper>
      {loading && <LinearProgress />}
      <Typography variant="body2" color="text.secondary">
        {admin
          ? shownUser
            ? translate(`${D}scope_user`, { username: shownUser })
            : translate(`${D}scope_all`)
          : translate(`${D}scope_self`)}
      </Typography>
      <RefreshHint />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {METRICS.map((metric) => (
          <Paper key={metric} sx={{ p: 2, flex: 1 }} data-testid={`total-${metric}`}>
            <Typography variant="body2" color="text.secondary">
              {translate(`${D}totals.${metric}`)}
            </Typography>
            <Typography variant="h5" component="p">
              {totalText[metric]}
            </Typography>
          </Paper>
        ))}
      </Stack>
      {rows.length === 0 ? (
        !loading && <Alert severity="info">{translate(`${D}empty`)}</Alert>
      ) : (
        <Paper sx={{ p: 2 }}>
          <Stack spacing={3}>
            <Legend models={models} colorOf={colorOf} />
            {METRICS.map((metric) => (
              <StackedBarChart
                key={metric}
                title={translate(`${D}charts.${metric}`)}
                labels={labels}
                series={usage.series[metric]}
                colorOf={colorOf}
                format={format[metric]}
              />
            ))}
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
