import type { ReactNode } from 'react';
import { Box } from '@mui/material';
import { DataTable, ListContextProvider, useList, useRecordContext } from 'react-admin';
import {
  BalanceCell,
  GroupsCell,
  InlineNumberCell,
  NameCell,
  ResponseTimeCell,
  StatusCell,
  TypeCell,
  UsedQuotaCell,
} from './ChannelCells';
import { ChannelRowActions } from './ChannelRowActions';
import { CHANNEL_COLUMNS, type ChannelColumn, type ColumnVisibility } from './ColumnSettings';
import { CHANNEL_ENABLED, isTagRow, type ChannelRow, type ChannelTagRow } from './types';

const CELLS: Record<ChannelColumn, (record: ChannelRow) => ReactNode> = {
  id: (record) => (isTagRow(record) ? '' : record.id),
  name: (record) => <NameCell record={record} />,
  group: (record) => <GroupsCell record={record} />,
  type: (record) => <TypeCell record={record} />,
  status: (record) => <StatusCell record={record} />,
  response_time: (record) => <ResponseTimeCell record={record} />,
  balance: (record) => <BalanceCell record={record} />,
  used_quota: (record) => <UsedQuotaCell record={record} />,
  // Keyed by value so a reloaded row starts from the saved number.
  priority: (record) => <InlineNumberCell key={record.priority} record={record} kind="priority" />,
  weight: (record) => <InlineNumberCell key={record.weight} record={record} kind="weight" />,
  actions: () => <ChannelRowActions />,
};

/** Disabled channels are greyed (spec 2). */
const rowSx = (record: ChannelRow) => (record.status === CHANNEL_ENABLED ? {} : { opacity: 0.6 });

function columnsOf(visible: ColumnVisibility): ReactNode[] {
  return CHANNEL_COLUMNS.filter((column) => visible[column]).map((column) => (
    <DataTable.Col<ChannelRow>
      key={column}
      source={column}
      label={`resources.channels.fields.${column}`}
      disableSort
      render={CELLS[column]}
    />
  ));
}

/** A tag row's channels, in the same columns. */
function TagChildren({ visible }: { visible: ColumnVisibility }) {
  const record = useRecordContext<ChannelTagRow>();
  const list = useList({ data: record?.children ?? [], perPage: 1000 });
  return (
    <Box sx={{ pl: 2 }} data-testid="tag-children">
      <ListContextProvider value={list}>
        <DataTable rowClick={false} bulkActionButtons={false} rowSx={rowSx}>
          {columnsOf(visible)}
        </DataTable>
      </ListContextProvider>
    </Box>
  );
}

/**
 * The channel table. In tag mode tag rows expand to their channels; in batch mode channels (not
 * tag rows) can be selected, and the toolbar above acts on the selection.
 */
export function ChannelTable({
  visible,
  tagMode,
  batchMode,
}: {
  visible: ColumnVisibility;
  tagMode: boolean;
  batchMode: boolean;
}) {
  return (
    <DataTable<ChannelRow>
      rowClick={false}
      rowSx={rowSx}
      bulkActionButtons={batchMode ? <></> : false}
      bulkActionsToolbar={false}
      isRowSelectable={(record) => !isTagRow(record)}
      expand={tagMode ? <TagChildren visible={visible} /> : undefined}
      isRowExpandable={(record) => isTagRow(record)}
    >
      {columnsOf(visible)}
    </DataTable>
  );
}
