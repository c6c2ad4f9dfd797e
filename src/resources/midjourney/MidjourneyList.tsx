import { useMemo, useState, type ReactElement } from 'react';
import { Alert, Box, Chip, Typography } from '@mui/material';
import { DataTable, List, NumberInput, TextInput, useTranslate } from 'react-admin';
import type { MjItem } from '../../../server/tasks/list-schemas';
import { canAccess, currentRole } from '../../authProvider';
import { storedStatus } from '../../status/status';
import { formatTimestamp, RememberedPagination, storedPageSize } from '../schema';
import { drawingTimeRange, msToUnixSeconds } from '../task/format';
import {
  ChannelCell,
  ColumnCell,
  DurationCell,
  ImageCell,
  LongTextCell,
  ProgressCell,
  TimestampInput,
  UserCell,
  type TaskColumn,
} from '../task/parts';
import { labelOf, MJ_ACTION_LABELS, MJ_CODE_LABELS, MJ_STATUS_LABELS, type Label } from './labels';

const t = (key: string) => `resources.midjourneys.${key}`;

/** A coloured label; a value the table does not know shows as itself (or "unknown" when empty). */
function LabelChip({ label, group, text, kind }: { label: Label | null; group: string; text: string; kind: string }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      color={label?.color ?? 'default'}
      data-kind={kind}
      data-value={label?.key ?? 'unknown'}
      label={label ? translate(t(`${group}.${label.key}`)) : text || translate(t('unknown'))}
    />
  );
}

/** Every column of the drawing log in order; the channel and user columns are for admins only. */
const COLUMNS: TaskColumn<MjItem>[] = [
  {
    key: 'submit_time',
    render: (r) => <Box sx={{ whiteSpace: 'nowrap' }}>{formatTimestamp(msToUnixSeconds(r.submit_time))}</Box>,
  },
  { key: 'duration', render: (r) => <DurationCell submit={r.submit_time} finish={r.finish_time} unitMs={1000} /> },
  { key: 'channel', adminOnly: true, render: (r) => <ChannelCell id={r.channel_id} name={r.channel_name} /> },
  { key: 'user', adminOnly: true, render: (r) => <UserCell id={r.user_id} name={r.username} /> },
  {
    key: 'action',
    render: (r) => <LabelChip kind="action" group="actions" label={labelOf(MJ_ACTION_LABELS, r.action)} text={r.action} />,
  },
  { key: 'mj_id', render: (r) => <Typography variant="body2">{r.mj_id}</Typography> },
  { key: 'code', render: (r) => <LabelChip kind="code" group="codes" label={labelOf(MJ_CODE_LABELS, r.code)} text="" /> },
  {
    key: 'status',
    render: (r) => <LabelChip kind="status" group="statuses" label={labelOf(MJ_STATUS_LABELS, r.status)} text={r.status} />,
  },
  { key: 'progress', render: (r) => <ProgressCell progress={r.progress} /> },
  { key: 'image_url', render: (r) => <ImageCell url={r.image_url} /> },
  { key: 'prompt', render: (r) => <LongTextCell text={r.prompt} title={t('fields.prompt')} /> },
  { key: 'prompt_en', render: (r) => <LongTextCell text={r.prompt_en} title={t('fields.prompt_en')} /> },
  { key: 'fail_reason', render: (r) => <LongTextCell text={r.fail_reason} title={t('fields.fail_reason')} /> },
];

/** Filters: time range and task id; channel and user for admins. */
function drawingFilters(admin: boolean): ReactElement[] {
  const filters: ReactElement[] = [
    <TimestampInput key="start_timestamp" source="start_timestamp" label={t('filters.start_timestamp')} alwaysOn />,
    <TimestampInput key="end_timestamp" source="end_timestamp" label={t('filters.end_timestamp')} alwaysOn />,
    <TextInput key="mj_id" source="mj_id" label={t('filters.mj_id')} alwaysOn />,
  ];
  if (admin) {
    filters.push(
      <NumberInput key="channel_id" source="channel_id" label={t('filters.channel_id')} min={0} step={1} alwaysOn />,
      <TextInput key="username" source="username" label={t('filters.username')} alwaysOn />,
    );
  }
  return filters;
}

/** Spec 2: admins are warned while the drawing callback (status flag mj_notify_enabled) is off. */
function NotifyBanner() {
  const translate = useTranslate();
  if (storedStatus()?.mj_notify_enabled === true) return null;
  return (
    <Alert severity="warning" sx={{ mb: 1 }}>
      {translate(t('notify_banner'))}
    </Alert>
  );
}

/**
 * /midjourney: the drawing log. Admins see every user's tasks with the channel and user columns
 * and filters; everyone else their own. Opens on the last 30 days through one hour ahead.
 */
export default function MidjourneyList() {
  const translate = useTranslate();
  // The stored role, read at once: the first list call must already go to the right endpoint.
  const admin = canAccess(currentRole(), { resource: 'midjourney', action: 'all_users' });
  // Computed once per visit: the window does not creep forward on every render.
  const [defaults] = useState(drawingTimeRange);
  const filters = useMemo(() => drawingFilters(admin), [admin]);
  const columns = COLUMNS.filter((c) => admin || !c.adminOnly);

  return (
    <List
      resource="midjourney"
      title={translate(t('name'))}
      perPage={storedPageSize()}
      storeKey={false}
      filters={filters}
      filterDefaultValues={defaults}
      pagination={<RememberedPagination />}
      empty={false}
      exporter={false}
    >
      {admin && <NotifyBanner />}
      <DataTable rowClick={false} bulkActionButtons={false}>
        {columns.map(({ key, render }) => (
          <DataTable.Col key={key} source={key} label={t(`fields.${key}`)} disableSort>
            <ColumnCell<MjItem> render={render} />
          </DataTable.Col>
        ))}
      </DataTable>
    </List>
  );
}
