/**
 * The one list screen of every resource, rendered from its schema: the filter bar, the toolbar
 * (the resource's actions, column settings, create), a table on a wide screen or cards on a phone,
 * pagination with the remembered page size, and the create and edit drawers over it. What differs
 * between resources comes through the schema's list and form slots.
 */
import { Fragment, useState } from 'react';
import { Stack, useMediaQuery, type Theme } from '@mui/material';
import { CreateButton, List, useGetResourceLabel, type RaRecord } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { useAccessPolicy, type AccessPolicy } from '../../authProvider/access';
import { filterFields, useRole } from './access';
import { SchemaCards } from './cards';
import { ColumnSettingsButton, useColumns, type Columns } from './columns';
import { SchemaCreateDrawer, SchemaEditDrawer } from './drawers';
import { SchemaFilterBar } from './filters';
import { FoldedRows } from './groups';
import { RememberedPagination, storedPageSize } from './pagination';
import { SchemaShowDrawer } from './show';
import { SchemaTable } from './table';
import type { ResourceSchema } from './types';

const NO_FILTER = {};
const off = () => false;

const mayCreate = (schema: ResourceSchema, role: number, may: AccessPolicy) =>
  !!schema.canCreate && may(role, { resource: schema.name, action: 'create' });

/** Create, when the schema allows it and the person may (a floating button on a phone). */
function CreateLink({ schema, role }: { schema: ResourceSchema; role: number }) {
  const location = useLocation();
  const may = useAccessPolicy();
  if (!mayCreate(schema, role, may)) return null;
  const segment = schema.list?.createAlias ?? 'create';
  return (
    <CreateButton
      resource={schema.name}
      to={{ pathname: `/${schema.name}/${segment}`, search: location.search }}
      variant="contained"
    />
  );
}

/** The toolbar (react-admin's list toolbar passes props it does not use). */
function Actions({ schema, role, columns }: { schema: ResourceSchema; role: number; columns: Columns }) {
  const Extra = schema.list?.actions;
  return (
    <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" alignItems="center" sx={{ py: 1 }}>
      {Extra && <Extra />}
      {columns.settings && <ColumnSettingsButton settings={columns.settings} />}
      <CreateLink schema={schema} role={role} />
    </Stack>
  );
}

function Screen<R extends RaRecord>({ schema: declared }: { schema: ResourceSchema<R> }) {
  // Cells and forms read records untyped; the declaration's own callbacks keep their record type.
  const schema = declared as unknown as ResourceSchema;
  const slots = schema.list;
  const role = useRole();
  const may = useAccessPolicy();
  const resourceLabel = useGetResourceLabel();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const columns = useColumns(schema, role);
  const permanent = (slots?.usePermanentFilter ?? (() => NO_FILTER))();
  const selectable = (slots?.selection ? (slots.selection.useEnabled ?? (() => true)) : off)();
  const grouped = (slots?.groups ? (slots.groups.useEnabled ?? (() => true)) : off)();
  const onContextMenu = (slots?.useContextMenu ?? (() => undefined))();
  // Computed once per visit: a time window does not creep forward on every render.
  const [defaults] = useState(() => slots?.filterDefaults?.());
  const Header = slots?.header;
  const Summary = slots?.summary;
  const rows = { schema, columns, selectable, grouped, onContextMenu };
  const fold = grouped ? slots?.groups?.fold : undefined;
  const body = phone ? <SchemaCards {...rows} /> : <SchemaTable {...rows} />;
  return (
    <>
      {Header && <Header />}
      <List
        resource={schema.name}
        title={resourceLabel(schema.name, 2)}
        perPage={storedPageSize()}
        storeKey={false}
        filter={permanent}
        filterDefaultValues={defaults}
        filters={filterFields(schema, role, may).length > 0 ? <SchemaFilterBar schema={schema} role={role} /> : undefined}
        actions={<Actions schema={schema} role={role} columns={columns} />}
        pagination={<RememberedPagination />}
        empty={false}
        exporter={false}
        // On a phone the floating create button covers the bottom of the page: room to scroll the pager above it.
        sx={{ '& .RaList-main': { minWidth: 0 }, pb: { xs: mayCreate(schema, role, may) ? 10 : 0, sm: 0 } }}
      >
        {Summary && <Summary />}
        {fold ? <FoldedRows fold={fold}>{body}</FoldedRows> : body}
      </List>
      {schema.canCreate && <SchemaCreateDrawer schema={schema} />}
      {schema.canEdit && <SchemaEditDrawer schema={schema} />}
      {schema.show && <SchemaShowDrawer schema={schema} />}
    </>
  );
}

/** A resource's list screen inside its own provider slot (state its other slots share). */
export function ResourceList<R extends RaRecord>({ schema }: { schema: ResourceSchema<R> }) {
  const Provider = schema.list?.provider ?? Fragment;
  return (
    <Provider>
      <Screen schema={schema} />
    </Provider>
  );
}
