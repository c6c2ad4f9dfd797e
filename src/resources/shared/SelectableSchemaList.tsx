/**
 * A schema's list screen with row selection, for resources that SchemaList does not fit (tokens,
 * redemption codes): the schema's filters (always shown) and columns, then the resource's own row
 * actions; "copy selected" and "create" in the top toolbar; the resource's drawers after the list.
 */
import { useMemo, type ComponentType, type ReactNode } from 'react';
import { CreateButton, DataTable, List, TopToolbar, useTranslate, type RaRecord } from 'react-admin';
import { RememberedPagination, SchemaCell, SchemaInput, storedPageSize, type ResourceSchema } from '../schema';
import { CopySelectedButton, type SelectedReader } from './CopySelectedButton';

export function SelectableSchemaList<R extends RaRecord>({
  schema: declared,
  readSelected,
  rowActions: RowActions,
  children,
}: {
  schema: ResourceSchema<R>;
  /** What "copy selected" copies. */
  readSelected: SelectedReader<R>;
  rowActions: ComponentType;
  /** The create and edit drawers, opened by their routes. */
  children: ReactNode;
}) {
  // Cells and filter inputs read records untyped; the declaration's own callbacks keep their type.
  const schema = declared as unknown as ResourceSchema;
  const translate = useTranslate();
  const filters = useMemo(
    () =>
      schema.fields
        .filter((field) => field.showInFilter)
        .map((field) => (
          <SchemaInput key={field.source} field={field} source={field.source} i18n={schema.i18n} mode="filter" alwaysOn />
        )),
    [schema],
  );
  return (
    <>
      <List
        resource={schema.name}
        title={translate(`resources.${schema.i18n}.name`)}
        perPage={storedPageSize()}
        storeKey={false}
        filters={filters}
        actions={
          <TopToolbar>
            <CopySelectedButton i18n={schema.i18n} read={readSelected} />
            <CreateButton resource={schema.name} to={`/${schema.name}/create`} />
          </TopToolbar>
        }
        pagination={<RememberedPagination />}
        empty={false}
        exporter={false}
      >
        {/* The selection toolbar shows the count; copying stays in the top toolbar, usable with none selected. */}
        <DataTable<RaRecord> rowClick={false} bulkActionButtons={<></>} rowSx={schema.rowSx}>
          {schema.fields
            .filter((field) => field.showInList)
            .map((field) => (
              <DataTable.Col
                key={field.source}
                source={field.source}
                label={`resources.${schema.i18n}.fields.${field.source}`}
                disableSort
              >
                <SchemaCell field={field} />
              </DataTable.Col>
            ))}
          <DataTable.Col source="actions" label={`resources.${schema.i18n}.fields.actions`} disableSort>
            <RowActions />
          </DataTable.Col>
        </DataTable>
      </List>
      {children}
    </>
  );
}
