import { useMemo, useState, type ReactElement } from 'react';
import { Box, Chip, Typography } from '@mui/material';
import { DataTable, List, NumberInput, TextInput, useTranslate } from 'react-admin';
import type { TaskItem } from '../../../server/tasks/list-schemas';
import { canAccess, currentRole } from '../../authProvider';
import { labelOf, type Label } from '../midjourney/labels';
import { formatTimestamp, RememberedPagination, storedPageSize } from '../schema';
import { taskTimeRange } from './format';
import { TASK_ACTION_LABELS, TASK_STATUS_LABELS } from './labels';
import {
  ChannelCell,
  ColumnCell,
  DurationCell,
  LongTextCell,
  ProgressCell,
  TimestampInput,
  UserCell,
  type TaskColumn,
} from './parts';

const t = (key: string) => `resources.tasks.${key}`;

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

const Time = ({ seconds }: { seconds: number }) => <Box sx={{ whiteSpace: 'nowrap' }}>{formatTimestamp(seconds)}</Box>;

/** Every column of the task log in order; the channel and user columns are for admins only. */
const COLUMNS: TaskColumn<TaskItem>[] = [
  { key: 'submit_time', render: (r) => <Time seconds={r.submit_time} /> },
  { key: 'finish_time', render: (r) => <Time seconds={r.finish_time} /> },
  { key: 'progress', render: (r) => <ProgressCell progress={r.progress} /> },
  { key: 'duration', render: (r) => <DurationCell submit={r.submit_time} finish={r.finish_time} unitMs={1} /> },
  { key: 'channel', adminOnly: true, render: (r) => <ChannelCell id={r.channel_id} name={r.channel_name} /> },
  { key: 'user', adminOnly: true, render: (r) => <UserCell id={r.user_id} name={r.username} /> },
  {
    key: 'platform',
    render: (r) => (r.platform ? <Chip size="small" variant="outlined" color="primary" label={r.platform} /> : null),
  },
  {
    key: 'action',
    render: (r) => <LabelChip kind="action" group="actions" label={labelOf(TASK_ACTION_LABELS, r.action)} text={r.action} />,
  },
  { key: 'task_id', render: (r) => <Typography variant="body2">{r.task_id}</Typography> },
  {
    key: 'status',
    render: (r) => <LabelChip kind="status" group="statuses" label={labelOf(TASK_STATUS_LABELS, r.status)} text={r.status} />,
  },
  { key: 'fail_reason', render: (r) => <LongTextCell text={r.fail_reason} title={t('fields.fail_reason')} /> },
];

/** Filters: time range and task id; channel and user for admins. */
function taskFilters(admin: boolean): ReactElement[] {
  const filters: ReactElement[] = [
    <TimestampInput key="start_timestamp" source="start_timestamp" label={t('filters.start_timestamp')} alwaysOn />,
    <TimestampInput key="end_timestamp" source="end_timestamp" label={t('filters.end_timestamp')} alwaysOn />,
    <TextInput key="task_id" source="task_id" label={t('filters.task_id')} alwaysOn />,
  ];
  if (admin) {
    filters.push(
      <NumberInput key="channel_id" source="channel_id" label={t('filters.channel_id')} min={0} step={1} alwaysOn />,
      <TextInput key="username" source="username" label={t('filters.username')} alwaysOn />,
    );
  }
  return filters;
}

/**
 * /task: the task log (Suno music and lyrics). Admins see every user's tasks with the channel and
 * user columns and filters; everyone else their own. Opens on today through one hour ahead.
 */
export default function TaskList() {
  const translate = useTranslate();
  // The stored role, read at once: the first list call must already go to the right endpoint.
  const admin = canAccess(currentRole(), { resource: 'task', action: 'all_users' });
  // Computed once per visit: the window does not creep forward on every render.
  const [defaults] = useState(taskTimeRange);
  const filters = useMemo(() => taskFilters(admin), [admin]);
  const columns = COLUMNS.filter((c) => admin || !c.adminOnly);

  return (
    <List
      resource="task"
      title={translate(t('name'))}
      perPage={storedPageSize()}
      storeKey={false}
      filters={filters}
      filterDefaultValues={defaults}
      pagination={<RememberedPagination />}
      empty={false}
      exporter={false}
    >
      <DataTable rowClick={false} bulkActionButtons={false}>
        {columns.map(({ key, render }) => (
          <DataTable.Col key={key} source={key} label={t(`fields.${key}`)} disableSort>
            <ColumnCell<TaskItem> render={render} />
          </DataTable.Col>
        ))}
      </DataTable>
    </List>
  );
}
