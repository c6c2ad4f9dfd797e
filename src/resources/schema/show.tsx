/**
 * The read-only detail drawer of a resource that declares `show`: opened by its route
 * (`/<name>/show/<id>`), from a row click or `SchemaShowButton`, the record fetched by id
 * (react-admin's getOne) and shown by the schema's body.
 */
import { Box, CircularProgress } from '@mui/material';
import { ShowBase, useRecordContext, useShowContext, useTranslate, type RaRecord } from 'react-admin';
import { useMatch } from 'react-router-dom';
import { DrawerFrame, useCloseDrawer } from './drawers';
import { drawerPath } from './RowDrawerButton';
import type { ResourceSchema, ShowSlots } from './types';

/** The path of a record's detail drawer. */
export const showPath = (resource: string, id: RaRecord['id']) => drawerPath(resource, 'show', id);

function Body({ show }: { show: ShowSlots }) {
  const translate = useTranslate();
  const { isPending, error } = useShowContext();
  const record = useRecordContext();
  if (isPending) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
        <CircularProgress aria-label={translate('ra.page.loading')} />
      </Box>
    );
  }
  if (error || !record) return null;
  const Shown = show.body;
  return <Shown />;
}

export function SchemaShowDrawer({ schema }: { schema: ResourceSchema }) {
  const match = useMatch(`/${schema.name}/show/:id`);
  const close = useCloseDrawer(schema.name);
  const translate = useTranslate();
  const id = match?.params.id;
  if (!schema.show) return null;
  return (
    <DrawerFrame
      open={!!id}
      onClose={close}
      title={translate(`resources.${schema.name}.show_title`, { _: translate('ra.action.show') })}
      width={schema.show.width}
    >
      {id && (
        <ShowBase resource={schema.name} id={id} queryOptions={{ onError: close }}>
          <Body show={schema.show} />
        </ShowBase>
      )}
    </DrawerFrame>
  );
}
