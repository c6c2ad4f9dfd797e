import { useMemo, useState } from 'react';
import { Box, CircularProgress } from '@mui/material';
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
} from 'react-admin';
import { DrawerFrame, useCloseDrawer } from '../schema/drawers';
import { useMatch } from 'react-router-dom';
import { ChannelInputs } from './ChannelInputs';
import {
  emptyValues,
  endsWithV1,
  toChannelBody,
  toFormValues,
  validateChannel,
  type ChannelFormValues,
  type FormMode,
} from './channelForm';
import type { ChannelView } from './types';

/**
 * The form of both drawers. Saving checks the spec's rules first; a base URL ending in /v1 asks
 * for confirmation before it is sent.
 */
function ChannelForm({ mode }: { mode: FormMode }) {
  const translate = useTranslate();
  const record = useRecordContext<ChannelView>();
  const { save } = useSaveContext();
  const [pending, setPending] = useState<ChannelFormValues | null>(null);
  const initial = useMemo(() => (mode === 'create' ? emptyValues() : record ? toFormValues(record) : null), [mode, record]);
  if (!initial) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
        <CircularProgress aria-label={translate('ra.page.loading')} />
      </Box>
    );
  }
  const submit = (values: Record<string, unknown>) => {
    const form = values as unknown as ChannelFormValues;
    if (endsWithV1(form.base_url)) {
      setPending(form);
      return;
    }
    return save?.(values);
  };
  const confirmed = () => {
    const values = pending;
    setPending(null);
    if (values) void save?.(values as unknown as Record<string, unknown>);
  };
  return (
    <>
      <SimpleForm
        record={initial}
        validate={(values) => validateChannel(values as Partial<ChannelFormValues>, mode)}
        onSubmit={submit}
        toolbar={
          <Toolbar>
            {/* Always enabled, so an untouched form shows its validation messages instead of doing nothing. */}
            <SaveButton alwaysEnable />
          </Toolbar>
        }
      >
        <ChannelInputs mode={mode} />
      </SimpleForm>
      <Confirm
        isOpen={!!pending}
        title="resources.channels.confirm.v1_title"
        content="resources.channels.confirm.v1_content"
        onConfirm={confirmed}
        onClose={() => setPending(null)}
      />
    </>
  );
}

function useSaved(message: string) {
  const notify = useNotify();
  const refresh = useRefresh();
  const close = useCloseDrawer('channel');
  return () => {
    notify(message, { type: 'success' });
    close();
    refresh();
  };
}

const createBody = (data: Record<string, unknown>) => toChannelBody(data as unknown as ChannelFormValues, 'create');
const editBody = (data: Record<string, unknown>) => toChannelBody(data as unknown as ChannelFormValues, 'edit');

/** The add-channel drawer at /channel/add (the spec's route) and /channel/create (react-admin's). */
export function ChannelCreateDrawer() {
  const translate = useTranslate();
  const added = useMatch('/channel/add');
  const created = useMatch('/channel/create');
  const open = !!(added || created);
  const close = useCloseDrawer('channel');
  const saved = useSaved('resources.channels.notification.created');
  return (
    <DrawerFrame width={560} open={open} onClose={close} title={translate('resources.channels.create_title')}>
      {open && (
        <CreateBase resource="channel" redirect={false} transform={createBody} mutationOptions={{ onSuccess: saved }}>
          <ChannelForm mode="create" />
        </CreateBase>
      )}
    </DrawerFrame>
  );
}

/** The edit drawer at /channel/edit/{id}. */
export function ChannelEditDrawer() {
  const translate = useTranslate();
  const match = useMatch('/channel/edit/:id');
  const close = useCloseDrawer('channel');
  const saved = useSaved('resources.channels.notification.updated');
  const id = match?.params.id;
  return (
    <DrawerFrame width={560} open={!!id} onClose={close} title={translate('resources.channels.edit_title')}>
      {id && (
        <EditBase
          resource="channel"
          id={id}
          redirect={false}
          mutationMode="pessimistic"
          transform={editBody}
          mutationOptions={{ onSuccess: saved }}
        >
          <ChannelForm mode="edit" />
        </EditBase>
      )}
    </DrawerFrame>
  );
}
