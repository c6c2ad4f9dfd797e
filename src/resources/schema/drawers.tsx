/**
 * The create and edit drawers of every resource: a side drawer over the list opened by its route
 * (`/<name>/create`, `/<name>/edit/<id>`), a form of the schema's inputs, and the resource's form
 * slots (starting values, whole-form checks, a confirmation before saving, a custom create).
 */
import { Fragment, useMemo, useState, type ReactNode } from 'react';
import { Box, CircularProgress, Drawer, IconButton, Stack, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import {
  Confirm,
  CreateBase,
  EditBase,
  SaveButton,
  SimpleForm,
  Toolbar,
  useNotify,
  useRecordContext,
  useRefresh,
  useSaveContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { useLocation, useMatch, useNavigate } from 'react-router-dom';
import { useAccessPolicy } from '../../authProvider/access';
import { formFields, useFormScope } from './access';
import { SchemaInput } from './inputs';
import type { FormValues, Mode, ResourceSchema } from './types';

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
  const translate = useTranslate();
  const record = useRecordContext<RaRecord>();
  const scope = useFormScope(record);
  const may = useAccessPolicy();
  // Which inputs show may depend on who is editing (not one's own group): wait until that is known.
  if (scope.pending && mode === 'edit' && schema.fields.some((field) => field.editWhen)) return null;
  return (
    <>
      {formFields(schema, mode, scope, may).map(({ field, readOnly }) => {
        const Addon = mode === 'edit' ? field.editAddon : undefined;
        const plain = <SchemaInput field={field} source={field.source} resource={schema.name} mode={mode} readOnly={readOnly} />;
        const input = field.section ? (
          <Fragment key={field.source}>
            <Typography variant="subtitle2" color="text.secondary" sx={{ mt: 2, mb: 0.5 }}>
              {translate(field.section)}
            </Typography>
            {plain}
          </Fragment>
        ) : (
          <Fragment key={field.source}>{plain}</Fragment>
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

/**
 * The form of both drawers. Save is always enabled, so an untouched form shows its validation
 * messages instead of doing nothing; a `confirm` slot asks before the values are sent.
 */
function SchemaForm({
  schema,
  mode,
  onSubmit,
}: {
  schema: ResourceSchema;
  mode: Mode;
  onSubmit?: (values: FormValues) => Promise<void> | void;
}) {
  const translate = useTranslate();
  const record = useRecordContext<RaRecord>();
  const { save } = useSaveContext();
  const slots = schema.form;
  const [pending, setPending] = useState<{ values: FormValues; title: string; content: string } | null>(null);
  const initial = useMemo(() => {
    if (mode === 'create') return slots?.defaults?.() ?? {};
    return record && slots?.toFormValues ? slots.toFormValues(record) : record;
  }, [mode, record, slots]);
  if (!initial) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
        <CircularProgress aria-label={translate('ra.page.loading')} />
      </Box>
    );
  }
  const send = (values: FormValues) => (onSubmit ? onSubmit(values) : save?.(values));
  const submit = (values: FormValues) => {
    const asked = slots?.confirm?.(values);
    if (asked) {
      setPending({ values, ...asked });
      return;
    }
    return send(values);
  };
  const validate = slots?.validate;
  return (
    <>
      <SimpleForm
        record={initial}
        validate={validate ? (values) => validate(values, mode) : undefined}
        onSubmit={submit}
        toolbar={
          <Toolbar>
            <SaveButton alwaysEnable />
          </Toolbar>
        }
      >
        <SchemaFormInputs schema={schema} mode={mode} />
      </SimpleForm>
      <Confirm
        isOpen={!!pending}
        title={pending?.title ?? ''}
        content={pending?.content ?? ''}
        onConfirm={() => {
          const values = pending?.values;
          setPending(null);
          if (values) void send(values);
        }}
        onClose={() => setPending(null)}
      />
    </>
  );
}

function useSaved(schema: ResourceSchema, mode: Mode, close: () => void) {
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const key =
    schema.form?.messages?.[mode] ?? `resources.${schema.name}.notification.${mode === 'create' ? 'created' : 'updated'}`;
  const fallback = mode === 'create' ? 'ra.notification.created' : 'ra.notification.updated';
  return () => {
    notify(key, { type: 'success', messageArgs: { smart_count: 1, _: translate(fallback, { smart_count: 1 }) } });
    close();
    refresh();
  };
}

function useFailed(schema: ResourceSchema) {
  const notify = useNotify();
  const onError = schema.form?.onError;
  return onError ? (error: unknown) => onError(error, (message) => notify(message, { type: 'error' })) : undefined;
}

/** The create form in a drawer at `/<name>/create` (and the resource's alias, e.g. `/channel/add`). */
export function SchemaCreateDrawer({ schema }: { schema: ResourceSchema }) {
  const created = useMatch(`/${schema.name}/create`);
  const aliased = useMatch(`/${schema.name}/${schema.list?.createAlias ?? 'create'}`);
  const open = !!(created || aliased);
  const close = useCloseDrawer(schema.name);
  const saved = useSaved(schema, 'create', close);
  const failed = useFailed(schema);
  const translate = useTranslate();
  const title = translate(`resources.${schema.name}.create_title`, { _: translate('ra.action.create') });
  if (schema.form?.useCreate) {
    // Mounted while closed too: what it shows after saving (e.g. the codes made) outlives the drawer.
    return <CustomCreateDrawer schema={schema} open={open} close={close} title={title} />;
  }
  return (
    <DrawerFrame open={open} onClose={close} title={title} width={schema.form?.width}>
      {open && (
        <CreateBase
          resource={schema.name}
          redirect={false}
          transform={schema.transform?.create}
          mutationOptions={{ onSuccess: saved, onError: failed }}
        >
          <SchemaForm schema={schema} mode="create" />
        </CreateBase>
      )}
    </DrawerFrame>
  );
}

function CustomCreateDrawer({
  schema,
  open,
  close,
  title,
}: {
  schema: ResourceSchema;
  open: boolean;
  close: () => void;
  title: string;
}) {
  const refresh = useRefresh();
  const custom = schema.form?.useCreate?.();
  if (!custom) return null;
  return (
    <>
      <DrawerFrame open={open} onClose={close} title={title} width={schema.form?.width}>
        {open && (
          <CreateBase resource={schema.name} redirect={false}>
            <SchemaForm schema={schema} mode="create" onSubmit={(values) => custom.submit(values, { close, refresh })} />
          </CreateBase>
        )}
      </DrawerFrame>
      {custom.after}
    </>
  );
}

/** The edit form in a drawer at `/<name>/edit/<id>`. */
export function SchemaEditDrawer({ schema }: { schema: ResourceSchema }) {
  const match = useMatch(`/${schema.name}/edit/:id`);
  const close = useCloseDrawer(schema.name);
  const saved = useSaved(schema, 'edit', close);
  const failed = useFailed(schema);
  const translate = useTranslate();
  const id = match?.params.id;
  return (
    <DrawerFrame
      open={!!id}
      onClose={close}
      title={translate(`resources.${schema.name}.edit_title`, { _: translate('ra.action.edit') })}
      width={schema.form?.width}
    >
      {id && (
        <EditBase
          resource={schema.name}
          id={id}
          redirect={false}
          mutationMode="pessimistic"
          transform={schema.transform?.edit}
          mutationOptions={{ onSuccess: saved, onError: failed }}
        >
          <SchemaForm schema={schema} mode="edit" />
        </EditBase>
      )}
    </DrawerFrame>
  );
}
