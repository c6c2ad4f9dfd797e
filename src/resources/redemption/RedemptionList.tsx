import { CreateButton, DataTable, List, TopToolbar, useTranslate, type RaRecord } from 'react-admin';
import { RememberedPagination, SchemaCell, SchemaInput, storedPageSize, type ResourceSchema } from '../schema';
import { CopySelectedButton } from './CopySelectedButton';
import { RedemptionCreateDrawer, RedemptionEditDrawer } from './RedemptionDrawers';
import { RedemptionRowActions } from './RedemptionRowActions';
import { redemptionSchema } from './redemptionSchema';

// Cells and filter inputs read records untyped; the declaration's own callbacks keep their type.
const schema = redemptionSchema as unknown as ResourceSchema;

const filters = schema.fields
  .filter((field) => field.showInFilter)
  .map((field) => (
    <SchemaInput key={field.source} field={field} source={field.source} i18n={schema.i18n} mode="filter" alwaysOn />
  ));

function RedemptionListActions() {
  return (
    <TopToolbar>
      <CopySelectedButton />
      <CreateButton resource="redemption" to="/redemption/create" />
    </TopToolbar>
  );
}

/**
 * /redemption: the admins' redemption codes. Built from the schema's pieces rather than SchemaList
 * because it needs row selection with an always-visible "copy selected" and its own drawers.
 */
export default function RedemptionList() {
  const translate = useTranslate();
  return (
    <>
      <List
        resource="redemption"
        title={translate('resources.redemptions.name')}
        perPage={storedPageSize()}
        storeKey={false}
        filters={filters}
        actions={<RedemptionListActions />}
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
                label={`resources.redemptions.fields.${field.source}`}
                disableSort
              >
                <SchemaCell field={field} />
              </DataTable.Col>
            ))}
          <DataTable.Col source="actions" label="resources.redemptions.fields.actions" disableSort>
            <RedemptionRowActions />
          </DataTable.Col>
        </DataTable>
      </List>
      <RedemptionCreateDrawer />
      <RedemptionEditDrawer />
    </>
  );
}
