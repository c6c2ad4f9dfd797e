import { createElement } from 'react';
import type { FieldSchema, ResourceSchema } from '../schema';
import { TimestampInput } from '../shared/TimestampInput';
import { defaultTimeRange } from './format';
import { CELLS } from './LogCells';
import { LogTypeFilter } from './LogInputs';
import { LogScreen, useOpenExtend } from './LogScreen';
import { LogStatHeader } from './LogStatHeader';
import type { LogRecord } from './types';

type Column = keyof typeof CELLS;

const filterLabel = (name: string) => `resources.log.filters.${name}`;

/** A column of the usage log, drawn by its cell; `admin` ones only for admins (column and filter). */
function column(source: Column, extra: Partial<FieldSchema<LogRecord>> = {}): FieldSchema<LogRecord> {
  return { source, type: 'virtual', showInList: true, render: (record) => createElement(CELLS[source], { record }), ...extra };
}

const admin = { permission: 'admin_columns' } as const;

/**
 * /log: usage logs. Admins see every user's rows with the channel, username and retry columns and
 * filters; everyone else their own. Opens on today; the stat header follows the filters; a
 * right-click on a row shows what was sent and answered; columns are chosen and remembered.
 */
const logSchema: ResourceSchema<LogRecord> = {
  name: 'log',
  fields: [
    {
      source: 'start_timestamp',
      type: 'date',
      showInFilter: { alwaysOn: true, label: filterLabel('start_timestamp'), input: TimestampInput },
    },
    {
      source: 'end_timestamp',
      type: 'date',
      showInFilter: { alwaysOn: true, label: filterLabel('end_timestamp'), input: TimestampInput },
    },
    column('time', { column: { nowrap: true } }),
    column('channel', { ...admin, type: 'number', showInFilter: { label: filterLabel('channel') } }),
    column('username', { ...admin, type: 'text', showInFilter: { label: filterLabel('username') } }),
    column('token'),
    { source: 'token_name', type: 'text', showInFilter: { label: filterLabel('token_name') } },
    column('group', { type: 'text', showInFilter: { label: filterLabel('group') } }),
    column('type', { showInFilter: { alwaysOn: true, label: filterLabel('type'), input: LogTypeFilter } }),
    column('model'),
    { source: 'model_name', type: 'text', showInFilter: { alwaysOn: true, label: filterLabel('model_name') } },
    column('use_time'),
    column('prompt'),
    column('completion'),
    column('quota', { column: { nowrap: true } }),
    column('retry', admin),
    column('details', { column: { maxWidth: 320 } }),
  ],
  list: {
    provider: LogScreen,
    summary: LogStatHeader,
    filterDefaults: defaultTimeRange,
    columnSettings: 'logs-columns',
    useContextMenu: useOpenExtend,
  },
};

export default logSchema;
