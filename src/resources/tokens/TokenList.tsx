import { Alert } from '@mui/material';
import { CreateButton, DataTable, List, TopToolbar, useTranslate, type RaRecord } from 'react-admin';
import { RememberedPagination, SchemaCell, SchemaInput, storedPageSize, type ResourceSchema } from '../schema';
import { CopySelectedButton } from './CopySelectedButton';
import { TokenCreateDrawer, TokenEditDrawer } from './TokenDrawers';
import { TokenRowActions } from './TokenRowActions';
import { tokenSchema } from './tokenSchema';

// Cells and filter inputs read records untyped; the declaration's own callbacks keep their type.
const schema = tokenSchema as unknown as ResourceSchema;

const filters = schema.fields
  .filter((field) => field.showInFilter)
  .map((field) => (
    <SchemaInput key={field.source} field={field} source={field.source} i18n={schema.i18n} mode="filter" alwaysOn />
  ));

function TokenListActions() {
  return (
    <TopToolbar>
      <CopySelectedButton />
      <CreateButton resource="token" to="/token/create" />
    </TopToolbar>
  );
}

/**
 * /token: the person's API tokens. Built from the schema's pieces rather than SchemaList because
 * it also needs row selection with an always-visible "copy selected" and its own drawers.
 */
export default function TokenList() {
  const translate = useTranslate();
  return (
    <>
      <Alert severity="warning" sx={{ mt: 2 }}>
        {translate('resources.tokens.warning')}
      </Alert>
      <List
        resource="token"
        title={translate('resources.tokens.name')}
        perPage={storedPageSize()}
        storeKey={false}
        filters={filters}
        actions={<TokenListActions />}
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
                label={`resources.tokens.fields.${field.source}`}
                disableSort
              >
                <SchemaCell field={field} />
              </DataTable.Col>
            ))}
          <DataTable.Col source="actions" label="resources.tokens.fields.actions" disableSort>
            <TokenRowActions />
          </DataTable.Col>
        </DataTable>
      </List>
      <TokenCreateDrawer />
      <TokenEditDrawer />
    </>
  );
}
