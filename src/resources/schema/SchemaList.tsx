import { Button as MuiButton } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import { CreateButton, DataTable, List, TopToolbar, useRecordContext, useTranslate, type RaRecord } from 'react-admin';
import { Link } from 'react-router-dom';
import { canAccess } from '../../authProvider/canAccess';
import { filterFields, listFields, useRole } from './access';
import { SchemaCell } from './cells';
import { SchemaCreateDrawer, SchemaEditDrawer } from './drawers';
import { labelKey } from './format';
import { SchemaInput } from './inputs';
import { RememberedPagination, storedPageSize } from './pagination';
import type { ResourceSchema } from './types';

function Actions({ schema, role }: { schema: ResourceSchema; role: number }) {
  const allowed = schema.canCreate && canAccess(role, { resource: schema.name, action: 'create' });
  return <TopToolbar>{allowed && <CreateButton resource={schema.name} to={`/${schema.name}/create`} />}</TopToolbar>;
}

/** Opens the edit drawer of the row's record (`/<name>/edit/<id>`). */
export function SchemaEditButton({ resource, disabled }: { resource: string; disabled?: boolean }) {
  const record = useRecordContext<RaRecord>();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <MuiButton
      size="small"
      startIcon={<EditIcon />}
      component={Link}
      to={`/${resource}/edit/${encodeURIComponent(String(record.id))}`}
      disabled={disabled}
    >
      {translate('ra.action.edit')}
    </MuiButton>
  );
}

/**
 * The list screen of a schema: filters, columns, remembered page size, and the create and edit
 * drawers that open over it from their routes.
 */
export function SchemaList<R extends RaRecord>({ schema: declared }: { schema: ResourceSchema<R> }) {
  // Cells and forms read records untyped; the declaration's own callbacks keep their record type.
  const schema = declared as unknown as ResourceSchema;
  const role = useRole();
  const translate = useTranslate();
  const RowActions = schema.rowActions;
  const filters = filterFields(schema, role).map((field) => (
    <SchemaInput
      key={field.source}
      field={field}
      source={field.source}
      i18n={schema.i18n}
      mode="filter"
      alwaysOn={typeof field.showInFilter === 'object' ? field.showInFilter.alwaysOn : undefined}
    />
  ));
  return (
    <>
      <List
        resource={schema.name}
        title={translate(`resources.${schema.i18n}.name`, { smart_count: 2 })}
        perPage={storedPageSize()}
        storeKey={false}
        filters={filters.length > 0 ? filters : undefined}
        actions={<Actions schema={schema} role={role} />}
        pagination={<RememberedPagination />}
        empty={false}
        exporter={false}
      >
        <DataTable rowClick={false} bulkActionButtons={false} rowSx={schema.rowSx}>
          {listFields(schema, role).map((field) => (
            <DataTable.Col
              key={field.source}
              source={field.source}
              label={labelKey(schema.i18n, field.source, field.label)}
              disableSort
            >
              <SchemaCell field={field} />
            </DataTable.Col>
          ))}
          {RowActions && (
            <DataTable.Col source="actions" label={`resources.${schema.i18n}.fields.actions`} disableSort>
              <RowActions />
            </DataTable.Col>
          )}
        </DataTable>
      </List>
      {schema.canCreate && <SchemaCreateDrawer schema={schema} />}
      {schema.canEdit && <SchemaEditDrawer schema={schema} />}
    </>
  );
}
