import type { ReactNode } from 'react';
import { Box, Drawer, IconButton, Stack, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import {
  CreateBase,
  EditBase,
  SaveButton,
  SimpleForm,
  Toolbar,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { useLocation, useMatch, useNavigate } from 'react-router-dom';
import { formFields, useFormScope } from './access';
import { SchemaInput } from './inputs';
import type { Mode, ResourceSchema } from './types';

/** Closes a drawer by going back to the list, keeping its filters and page. */
export function useCloseDrawer(name: string): () => void {
  const navigate = useNavigate();
  const location = useLocation();
  return () => void navigate({ pathname: `/${name}`, search: location.search });
}

/** The side drawer of create and edit screens: a title, a close button, the form. */
export function DrawerFrame({
  open,
  title,
  onClose,
  children,
  width = 500,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  width?: number;
}) {
  return (
    <Drawer anchor="right" open={open} onClose={onClose}>
      <Box sx={{ width: { xs: '100vw', sm: width } }} role="dialog" aria-label={title}>
        <Stack direction="row" alignItems="center" sx={{ px: 2, pt: 2 }}>
          <Typography variant="h6" sx={{ flex: 1 }}>
            {title}
          </Typography>
          <IconButton onClick={onClose} aria-label="close">
            <CloseIcon />
          </IconButton>
        </Stack>
        {children}
      </Box>
    </Drawer>
  );
}

function SchemaFormInputs({ schema, mode }: { schema: ResourceSchema; mode: Mode }) {
  const record = useRecordContext<RaRecord>();
  const scope = useFormScope(record);
  return (
    <>
      {formFields(schema, mode, scope).map(({ field, readOnly }) => {
        const Addon = mode === 'edit' ? field.editAddon : undefined;
        const input = (
          <SchemaInput
            key={field.source}
            field={field}
            source={field.source}
            i18n={schema.i18n}
            mode={mode}
            readOnly={readOnly}
          />
        );
        if (!Addon) return input;
        return (
          <Stack key={field.source} direction="row" spacing={1} alignItems="flex-start" sx={{ width: '100%' }}>
            {input}
            <Box sx={{ pt: 1 }}>
              <Addon />
            </Box>
          </Stack>
        );
      })}
    </>
  );
}

/** The create form in a drawer at `/<name>/create`. */
export function SchemaCreateDrawer({ schema }: { schema: ResourceSchema }) {
  const match = useMatch(`/${schema.name}/create`);
  const close = useCloseDrawer(schema.name);
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const created = () => {
    notify(`resources.${schema.i18n}.notification.created`, {
      type: 'success',
      messageArgs: { _: translate('ra.notification.created', { smart_count: 1 }) },
    });
    close();
    refresh();
  };
  return (
    <DrawerFrame
      open={!!match}
      onClose={close}
      title={translate(`resources.${schema.i18n}.create_title`, { _: translate('ra.action.create') })}
    >
      {match && (
        <CreateBase
          resource={schema.name}
          redirect={false}
          transform={schema.transform?.create}
          mutationOptions={{ onSuccess: created }}
        >
          {/* Always enabled, so an empty form shows its validation messages instead of doing nothing. */}
          <SimpleForm
            toolbar={
              <Toolbar>
                <SaveButton alwaysEnable />
              </Toolbar>
            }
          >
            <SchemaFormInputs schema={schema} mode="create" />
          </SimpleForm>
        </CreateBase>
      )}
    </DrawerFrame>
  );
}

/** The edit form in a drawer at `/<name>/edit/<id>`. */
export function SchemaEditDrawer({ schema }: { schema: ResourceSchema }) {
  const match = useMatch(`/${schema.name}/edit/:id`);
  const close = useCloseDrawer(schema.name);
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const updated = () => {
    notify(`resources.${schema.i18n}.notification.updated`, {
      type: 'success',
      messageArgs: { _: translate('ra.notification.updated', { smart_count: 1 }) },
    });
    close();
    refresh();
  };
  const id = match?.params.id;
  return (
    <DrawerFrame
      open={!!id}
      onClose={close}
      title={translate(`resources.${schema.i18n}.edit_title`, { _: translate('ra.action.edit') })}
    >
      {id && (
        <EditBase
          resource={schema.name}
          id={id}
          redirect={false}
          mutationMode="pessimistic"
          transform={schema.transform?.edit}
          mutationOptions={{ onSuccess: updated }}
        >
          <SimpleForm>
            <SchemaFormInputs schema={schema} mode="edit" />
          </SimpleForm>
        </EditBase>
      )}
    </DrawerFrame>
  );
}
