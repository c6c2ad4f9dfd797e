/** /channelStatistics: usage per channel and model, with CSV export. */
import { useEffect, useState, type FormEvent } from 'react';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import SearchIcon from '@mui/icons-material/Search';
import { useGateway } from '../../api/customMethods';
import { useStatus } from '../../status/status';
import { RefreshHint } from '../shared/RefreshHint';
import { errorMessage } from '../shared/errors';
import { useClipboard } from '../shared/useClipboard';
import { StatisticsTable } from './StatisticsTable';
import {
  csvFileName,
  defaultFilter,
  statisticsCsv,
  statisticsQuery,
  type ChannelUseRow,
  type StatisticsFilter,
} from './statistics';

const DEFAULT_QUOTA_PER_UNIT = 500_000;
const NO_ROWS: ChannelUseRow[] = [];
const S = 'resources.channel.statistics.';

function download(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

export default function ChannelStatisticsPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const { status } = useStatus();
  const { copy, dialog } = useClipboard();
  const [filter, setFilter] = useState<StatisticsFilter>(() => defaultFilter());
  const quotaPerUnit = status?.quota_per_unit || Number(localStorage.getItem('quota_per_unit')) || DEFAULT_QUOTA_PER_UNIT;
  const set = <K extends keyof StatisticsFilter>(field: K, value: StatisticsFilter[K]) =>
    setFilter((f) => ({ ...f, [field]: value }));

  // The range last queried: the first with the defaults, later ones when Query is pressed.
  const [applied, setApplied] = useState(() => statisticsQuery(filter));
  const gateway = useGateway();
  const use = useQuery({
    queryKey: ['channel-use', applied],
    queryFn: () => gateway.getChannelUse(applied),
    retry: false,
    placeholderData: keepPreviousData,
  });
  const rows = use.data ?? NO_ROWS;
  const loading = use.isFetching;
  const { error, refetch } = use;
  useEffect(() => {
    if (error) notify(errorMessage(error), { type: 'error' });
  }, [error, notify]);

  const query = (event: FormEvent) => {
    event.preventDefault();
    const next = statisticsQuery(filter);
    if (next === applied) void refetch();
    else setApplied(next);
  };

  const exported = useMutation({
    mutationFn: () => gateway.getChannelUse(statisticsQuery(filter)),
    onSuccess: (fetched) => {
      const header = [
        translate(`${S}channel_id`),
        translate(`${S}model_name`),
        translate(`${S}token_used`),
        translate(`${S}count`),
        translate(`${S}quota`),
        translate(`${S}cache_hit_rate`),
      ] as const;
      download(statisticsCsv(fetched, quotaPerUnit, header), csvFileName());
    },
    onError: (err: unknown) => notify(errorMessage(err), { type: 'error' }),
  });
  const exportCsv = () => exported.mutate();
  const exporting = exported.isPending;

  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 } }}>
      <Typography variant="h5" component="h1">
        {translate(`${S}title`)}
      </Typography>
      <Paper sx={{ p: 2 }}>
        <Stack component="form" onSubmit={query} direction="row" spacing={2} flexWrap="wrap" useFlexGap alignItems="center">
          <TextField
            type="datetime-local"
            size="small"
            label={translate(`${S}start`)}
            value={filter.start}
            onChange={(e) => set('start', e.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            type="datetime-local"
            size="small"
            label={translate(`${S}end`)}
            value={filter.end}
            onChange={(e) => set('end', e.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            size="small"
            label={translate(`${S}model_name`)}
            value={filter.model_name}
            onChange={(e) => set('model_name', e.target.value)}
          />
          <TextField
            size="small"
            label={translate(`${S}channel_id`)}
            value={filter.channel_id}
            onChange={(e) => set('channel_id', e.target.value.replace(/\D/g, ''))}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          />
          <FormControlLabel
            control={<Switch checked={filter.merge} onChange={(e) => set('merge', e.target.checked)} />}
            label={translate(`${S}merge`)}
          />
          <Button type="submit" variant="contained" startIcon={<SearchIcon />} disabled={loading}>
            {translate(`${S}query`)}
          </Button>
          <Button variant="outlined" startIcon={<DownloadIcon />} disabled={exporting} onClick={exportCsv}>
            {translate(`${S}export`)}
          </Button>
        </Stack>
      </Paper>
      <RefreshHint />
      <StatisticsTable rows={rows} loading={loading} quotaPerUnit={quotaPerUnit} onCopy={(text) => void copy(text)} />
      {dialog}
    </Stack>
  );
}
