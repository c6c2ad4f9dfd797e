/**
 * The wide-screen rows of a schema's list: react-admin's DataTable with the schema's columns,
 * the row actions last, row selection, tag-grouped rows that expand to their records in the same
 * columns, and the resource's right-click action. Rows carry their id as `data-id`.
 */
import { createContext, forwardRef, useContext, type MouseEvent } from 'react';
import { Box } from '@mui/material';
import {
  DataTable,
  DataTableBody,
  DataTableRow,
  ListContextProvider,
  useList,
  useRecordContext,
  type DataTableBodyProps,
  type DataTableRowProps,
  type RaRecord,
} from 'react-admin';
import { useLocation } from 'react-router-dom';
import { SchemaCell } from './cells';
import { showPath } from './show';
import { ACTIONS_COLUMN, type Columns } from './columns';
import type { FieldSchema, ResourceSchema } from './types';

type ContextMenu = ((record: RaRecord) => void) | undefined;
const ContextMenuContext = createContext<ContextMenu>(undefined);

const SchemaRow = forwardRef<HTMLTableRowElement, DataTableRowProps>(function SchemaRow(props, ref) {
  const record = useRecordContext();
  const onMenu = useContext(ContextMenuContext);
  const onContextMenu =
    onMenu && record
      ? (event: MouseEvent<HTMLTableRowElement>) => {
          event.preventDefault();
          onMenu(record);
        }
      : undefined;
  return <DataTableRow ref={ref} {...props} onContextMenu={onContextMenu} data-id={record?.id} />;
});

function SchemaBody(props: DataTableBodyProps) {
  return <DataTableBody {...props} row={SchemaRow} />;
}

function cellSx(field: FieldSchema) {
  const { nowrap, maxWidth } = field.column ?? {};
  if (!nowrap && !maxWidth) return undefined;
  return () => ({
    ...(nowrap ? { whiteSpace: 'nowrap' } : {}),
    ...(maxWidth ? { maxWidth, wordBreak: 'break-word' as const } : {}),
  });
}

function columnsOf(schema: ResourceSchema, columns: Columns) {
  const RowActions = schema.rowActions;
  return [
    ...columns.fields.map((field) => (
      <DataTable.Col key={field.source} source={field.source} label={field.label} disableSort cellSx={cellSx(field)}>
        <SchemaCell field={field} />
      </DataTable.Col>
    )),
    ...(columns.actions && RowActions
      ? [
          <DataTable.Col
            key={ACTIONS_COLUMN}
            source={ACTIONS_COLUMN}
            label={`resources.${schema.name}.fields.actions`}
            disableSort
          >
            <RowActions />
          </DataTable.Col>,
        ]
      : []),
  ];
}

/**
 * Headers stay on one line; cells wrap (the times that must not break say `nowrap`). Cells keep
 * 8 px either side rather than MUI's 16, so a log's thirteen columns fit a 1440 px screen in
 * either language. A table wider than the screen still scrolls inside its frame: the page itself
 * never scrolls sideways.
 */
const tableSx = {
  '& .RaDataTable-headerCell': { whiteSpace: 'nowrap' },
  '& .MuiTableCell-root': { px: 1 },
  '& .RaDataTable-tableWrapper': { overflowX: 'auto' },
};

/** A group row's records, in the same columns. */
function GroupRows({ schema, columns }: { schema: ResourceSchema; columns: Columns }) {
  const record = useRecordContext();
  const children = (record && schema.list?.groups?.childrenOf(record)) ?? [];
  const list = useList({ data: children, perPage: 1000 });
  return (
    <Box sx={{ pl: 2 }} data-testid="group-rows">
      <ListContextProvider value={list}>
        <DataTable rowClick={false} bulkActionButtons={false} rowSx={schema.rowSx} sx={tableSx} body={SchemaBody}>
          {columnsOf(schema, columns)}
        </DataTable>
      </ListContextProvider>
    </Box>
  );
}

export function SchemaTable({
  schema,
  columns,
  selectable,
  grouped,
  onContextMenu,
}: {
  schema: ResourceSchema;
  columns: Columns;
  selectable: boolean;
  grouped: boolean;
  onContextMenu: ContextMenu;
}) {
  const selection = schema.list?.selection;
  const groups = schema.list?.groups;
  const { search } = useLocation();
  // A resource with a detail drawer opens it from the row, keeping the list's filters.
  const rowClick = schema.show ? (id: RaRecord['id']) => `${showPath(schema.name, id)}${search}` : false;
  return (
    <ContextMenuContext.Provider value={onContextMenu}>
      <DataTable
        rowClick={rowClick}
        rowSx={schema.rowSx}
        sx={tableSx}
        body={SchemaBody}
        // The count bar's actions live in the toolbar above, usable with nothing selected.
        bulkActionButtons={selectable ? <></> : false}
        bulkActionsToolbar={selectable && selection?.bar === false ? false : undefined}
        isRowSelectable={selection?.isSelectable}
        expand={grouped ? <GroupRows schema={schema} columns={columns} /> : undefined}
        isRowExpandable={groups ? (record) => !!groups.childrenOf(record) : undefined}
      >
        {columnsOf(schema, columns)}
      </DataTable>
    </ContextMenuContext.Provider>
  );
}
