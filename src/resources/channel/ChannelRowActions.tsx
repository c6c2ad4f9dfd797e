import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Button, IconButton, Menu, MenuItem, Stack } from '@mui/material';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import EditIcon from '@mui/icons-material/Edit';
import { Confirm, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { useAccessPolicy } from '../../authProvider/access';
import { ActionFormDrawer, SchemaEditButton, useRole } from '../schema';
import { useGateway, type GatewayDataProvider } from '../../api/customMethods';
import { tagEditForm } from './tagForms';
import {
  CHANNEL_ENABLED,
  CHANNEL_MANUALLY_DISABLED,
  isTagRow,
  splitNames,
  type ChannelRow,
  type ChannelTagRow,
  type ChannelView,
} from './types';

const failed = (err: unknown) => (err instanceof Error ? err.message : 'app.error.request_failed');

type Notice = [string, Record<string, unknown>?];

/** Runs one action at a time through the dataProvider: success toast and reload, or the server's message. */
function useAction() {
  const notify = useNotify();
  const refresh = useRefresh();
  const gateway = useGateway();
  const action = useMutation({
    mutationFn: (work: () => Promise<Notice>) => work(),
    onSuccess: ([message, messageArgs]) => {
      notify(message, { type: 'success', messageArgs });
      refresh();
    },
    onError: (err: unknown) => notify(failed(err), { type: 'error' }),
  });
  const run = <T,>(work: (gateway: GatewayDataProvider) => Promise<T>, success: (result: T) => Notice) =>
    action.mutate(async () => success(await work(gateway)));
  return { busy: action.isPending, run };
}

/** Test with the channel's test model, or pick one of its models from the menu. */
function TestButton({ channel, busy, run }: { channel: ChannelView } & ReturnType<typeof useAction>) {
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const test = (model?: string) => {
    setAnchor(null);
    run(
      (gateway) => gateway.testChannel(channel.id, model),
      (seconds) => ['resources.channel.notification.tested', { name: channel.name, time: seconds.toFixed(2) }],
    );
  };
  const models = splitNames(channel.models);
  return (
    <Stack direction="row" spacing={0}>
      <Button size="small" disabled={busy} onClick={() => test()}>
        {translate('resources.channel.actions.test')}
      </Button>
      <IconButton
        size="small"
        disabled={busy || models.length === 0}
        aria-label={translate('resources.channel.actions.test_model')}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <ArrowDropDownIcon fontSize="small" />
      </IconButton>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {models.map((model) => (
          <MenuItem key={model} dense onClick={() => test(model)}>
            {model}
          </MenuItem>
        ))}
      </Menu>
    </Stack>
  );
}

function ChannelActions({ channel }: { channel: ChannelView }) {
  const translate = useTranslate();
  const role = useRole();
  const action = useAction();
  const { busy, run } = action;
  const [confirming, setConfirming] = useState(false);
  const policy = useAccessPolicy();
  const may = (name: string) => policy(role, { resource: 'channel', action: name });
  const enabled = channel.status === CHANNEL_ENABLED;
  const toggle = () =>
    run(
      (gateway) => gateway.quickUpdateChannel({ id: channel.id, status: enabled ? CHANNEL_MANUALLY_DISABLED : CHANNEL_ENABLED }),
      () => ['resources.channel.notification.updated'],
    );
  const copy = () =>
    run(
      (gateway) => gateway.copyChannel(channel.id),
      () => ['resources.channel.notification.copied'],
    );
  const remove = () => {
    setConfirming(false);
    run(
      (gateway) => gateway.deleteChannel(channel.id),
      () => ['resources.channel.notification.deleted'],
    );
  };
  return (
    <Stack direction="row" spacing={0.5} alignItems="center" flexWrap="wrap" useFlexGap>
      <TestButton channel={channel} {...action} />
      <Button size="small" color={enabled ? 'warning' : 'success'} disabled={busy} onClick={toggle}>
        {translate(enabled ? 'resources.channel.actions.disable' : 'resources.channel.actions.enable')}
      </Button>
      <SchemaEditButton resource="channel" disabled={!may('edit')} />
      <Button size="small" disabled={busy || !may('copy')} onClick={copy}>
        {translate('resources.channel.actions.copy')}
      </Button>
      <Button size="small" color="error" disabled={busy || !may('delete')} onClick={() => setConfirming(true)}>
        {translate('ra.action.delete')}
      </Button>
      <Confirm
        isOpen={confirming}
        title="resources.channel.confirm.delete_title"
        content="resources.channel.confirm.delete_content"
        translateOptions={{ name: channel.name }}
        onConfirm={remove}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}

function TagActions({ row }: { row: ChannelTagRow }) {
  const translate = useTranslate();
  const role = useRole();
  const may = useAccessPolicy();
  const refresh = useRefresh();
  const { busy, run } = useAction();
  // The row as the form opened on it: a reload behind the drawer does not reset what is typed.
  const [editing, setEditing] = useState<ChannelTagRow | null>(null);
  const setAll = (enabled: boolean) =>
    run(
      (gateway) => gateway.setTagEnabled(row.tag, enabled),
      (count) => ['resources.channel.notification.tag_status', { count }],
    );
  return (
    <Stack direction="row" spacing={0.5} alignItems="center" flexWrap="wrap" useFlexGap>
      <Button size="small" color="success" disabled={busy} onClick={() => setAll(true)}>
        {translate('resources.channel.actions.enable_tag')}
      </Button>
      <Button size="small" color="warning" disabled={busy} onClick={() => setAll(false)}>
        {translate('resources.channel.actions.disable_tag')}
      </Button>
      <Button
        size="small"
        startIcon={<EditIcon />}
        disabled={!may(role, { resource: 'channel', action: 'tag_edit' })}
        onClick={() => setEditing(row)}
      >
        {translate('resources.channel.actions.edit_tag')}
      </Button>
      <ActionFormDrawer
        resource="channel"
        form={tagEditForm}
        subject={editing}
        onClose={() => setEditing(null)}
        onDone={() => {
          setEditing(null);
          refresh();
        }}
      />
    </Stack>
  );
}

/** The last column: a channel's actions, or a tag's. */
export function ChannelRowActions() {
  const record = useRecordContext<ChannelRow>();
  if (!record) return null;
  return isTagRow(record) ? <TagActions row={record} /> : <ChannelActions channel={record} />;
}
