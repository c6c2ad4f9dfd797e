import { forwardRef, useMemo, useState, type MouseEvent } from 'react';
import {
  DataTable,
  DataTableBody,
  DataTableRow,
  List,
  TopToolbar,
  useRecordContext,
  useTranslate,
  type DataTableBodyProps,
  type DataTableRowProps,
  type Identifier,
} from 'react-admin';
import { canAccess, currentRole } from '../../authProvider';
import { RememberedPagination, storedPageSize } from '../schema';
import { ColumnsButton } from './ColumnsDialog';
import { useLogColumns } from './columnSettings';
import { ExtendDialog } from './ExtendDialog';
import { defaultTimeRange } from './format';
import { LogActionsContext, useLogActions, type LogActions } from './LogActionsContext';
import { LogCell } from './LogCells';
import { logFilters } from './LogFilters';
import { LogStatHeader } from './LogStatHeader';
import type { LogRecord } from './types';
import { UserLookupDialog } from './UserLookupDialog';

/** A table row whose context menu (right-click) opens the log's extend detail. */
const LogRow = forwardRef<HTMLTableRowElement, DataTableRowProps>(function LogRow(props, ref) {
  const record = useRecordContext<LogRecord>();
  const { openExtend } = useLogActions();
  const onContextMenu = (event: MouseEvent<HTMLTableRowElement>) => {
    if (!record) return;
    event.preventDefault();
    openExtend(record.id);
  };
  return <DataTableRow ref={ref} {...props} onContextMenu={onContextMenu} data-log-id={record?.id} />;
});

function LogBody(props: DataTableBodyProps) {
  return <DataTableBody {...props} row={LogRow} />;
}

/**
 * /log: usage logs. Admins see every user's rows with the channel, username and retry columns;
 * everyone else their own. The stat header follows the filters; right-clicking a row shows what
 * was sent and answered.
 */
export default function LogList() {
  const translate = useTranslate();
  // The stored role (what getPermissions answers), read at once: the first list and stat calls
  // must already go to the admin or the self endpoints, as the dataProvider's choice does.
  const role = currentRole();
  const admin = canAccess(role, { resource: 'log', action: 'admin_columns' });
  const columns = useLogColumns(admin);
  const [extendId, setExtendId] = useState<Identifier | null>(null);
  const [lookupId, setLookupId] = useState<number | null>(null);
  const actions = useMemo<LogActions>(() => ({ openExtend: setExtendId, lookUpUser: setLookupId }), []);
  // Computed once per visit: the window does not creep forward on every render.
  const [defaults] = useState(defaultTimeRange);
  const filters = useMemo(() => logFilters(admin), [admin]);

  return (
    <LogActionsContext.Provider value={actions}>
      <List
        resource="log"
        title={translate('resources.logs.name')}
        perPage={storedPageSize()}
        storeKey={false}
        filters={filters}
        filterDefaultValues={defaults}
        actions={
          <TopToolbar>
            <ColumnsButton {...columns} />
          </TopToolbar>
        }
        pagination={<RememberedPagination />}
        empty={false}
        exporter={false}
      >
        <LogStatHeader role={role} />
        <DataTable rowClick={false} bulkActionButtons={false} body={LogBody}>
          {columns.visible.map((key) => (
            <DataTable.Col key={key} source={key} label={`resources.logs.fields.${key}`} disableSort>
              <LogCell column={key} />
            </DataTable.Col>
          ))}
        </DataTable>
      </List>
      <ExtendDialog id={extendId} onClose={() => setExtendId(null)} />
      {admin && <UserLookupDialog userId={lookupId} onClose={() => setLookupId(null)} />}
    </LogActionsContext.Provider>
  );
}
