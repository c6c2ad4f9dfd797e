/**
 * The list both task logs render, the Drawing log (/midjourney) and the Task log (/task): admins
 * see every user's tasks with the admin-only columns and the channel and user filters, everyone
 * else their own; filters on a time range (opening on the log's default window) and the task id.
 */
import { useMemo, useState, type ReactElement, type ReactNode } from 'react';
import { DataTable, List, NumberInput, TextInput, useTranslate, type RaRecord } from 'react-admin';
import { canAccess, currentRole } from '../../authProvider';
import { RememberedPagination, storedPageSize } from '../schema';
import type { TimeRange } from './format';
import { ColumnCell, TimestampInput, type TaskColumn } from './parts';

export interface TaskLogListProps<R extends RaRecord> {
  /** The resource ('midjourney', 'task'): its list endpoint and its access rules. */
  resource: string;
  /** Where its texts live, e.g. `resources.tasks` (name, fields.*, filters.*). */
  i18n: string;
  /** The source of the task id filter ('mj_id', 'task_id'). */
  idFilter: string;
  /** The time window a visit opens on. */
  defaultRange: () => TimeRange;
  /** Every column in order. */
  columns: TaskColumn<R>[];
  /** Shown to admins above the table. */
  adminBanner?: ReactNode;
}

/** Filters: time range and task id; channel and user for admins. */
function taskLogFilters(admin: boolean, i18n: string, idFilter: string): ReactElement[] {
  const t = (key: string) => `${i18n}.${key}`;
  const filters: ReactElement[] = [
    <TimestampInput key="start_timestamp" source="start_timestamp" label={t('filters.start_timestamp')} alwaysOn />,
    <TimestampInput key="end_timestamp" source="end_timestamp" label={t('filters.end_timestamp')} alwaysOn />,
    <TextInput key={idFilter} source={idFilter} label={t(`filters.${idFilter}`)} alwaysOn />,
  ];
  if (admin) {
    filters.push(
      <NumberInput key="channel_id" source="channel_id" label={t('filters.channel_id')} min={0} step={1} alwaysOn />,
      <TextInput key="username" source="username" label={t('filters.username')} alwaysOn />,
    );
  }
  return filters;
}

export function TaskLogList<R extends RaRecord>({
  resource,
  i18n,
  idFilter,
  defaultRange,
  columns,
  adminBanner,
}: TaskLogListProps<R>) {
  const translate = useTranslate();
  // The stored role, read at once: the first list call must already go to the right endpoint.
  const admin = canAccess(currentRole(), { resource, action: 'all_users' });
  // Computed once per visit: the window does not creep forward on every render.
  const [defaults] = useState(defaultRange);
  const filters = useMemo(() => taskLogFilters(admin, i18n, idFilter), [admin, i18n, idFilter]);
  const shown = columns.filter((c) => admin || !c.adminOnly);

  return (
    <List
      resource={resource}
      title={translate(`${i18n}.name`)}
      perPage={storedPageSize()}
      storeKey={false}
      filters={filters}
      filterDefaultValues={defaults}
      pagination={<RememberedPagination />}
      empty={false}
      exporter={false}
    >
      {admin && adminBanner}
      <DataTable rowClick={false} bulkActionButtons={false}>
        {shown.map(({ key, render }) => (
          <DataTable.Col key={key} source={key} label={`${i18n}.fields.${key}`} disableSort>
            <ColumnCell<R> render={render} />
          </DataTable.Col>
        ))}
      </DataTable>
    </List>
  );
}
