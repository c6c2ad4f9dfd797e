/**
 * The keys of a multi-key channel in its edit drawer: each by position and last four characters
 * (the server never sends a key), its state and why it was disabled, with enable and disable.
 */
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Box, Button, Chip, Stack, Typography } from '@mui/material';
import { SelectInput, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { formatTimestamp } from '../schema';
import type { KeyAction } from '../../api/channelActions';
import { useGateway } from '../../api/customMethods';
import { HealthChip } from './ChannelHealth';
import { CHANNEL_AUTO_DISABLED, CHANNEL_ENABLED } from './types';
import type { ChannelFormValues } from './channelForm';
import type { ChannelKeyView } from '../../../server/channels/schemas';

const K = 'resources.channel.keys.';

const MODE_CHOICES = ['random', 'polling'].map((id) => ({ id, name: `resources.channel.multi_key_modes.${id}` }));

/** How a channel with several keys uses them. */
export function MultiKeyModeInput() {
  return (
    <SelectInput
      source="multi_key_mode"
      label="resources.channel.fields.multi_key_mode"
      helperText="resources.channel.helper.multi_key_mode"
      choices={MODE_CHOICES}
      emptyText="resources.channel.multi_key_modes.random"
      emptyValue=""
    />
  );
}

export function ChannelKeysInput() {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  // Inside the form the record is the form's values (channelForm.ts), which carry the keys.
  const record = useRecordContext<ChannelFormValues & { id: number }>();
  // The answer of the last action, else the record as loaded.
  const [updated, setKeys] = useState<ChannelKeyView[] | null>(null);
  const keys = updated ?? record?.keys ?? [];
  const gateway = useGateway();
  const managing = useMutation({
    mutationFn: ({ id, action, index }: { id: number; action: KeyAction; index?: number }) =>
      gateway.manageChannelKeys(id, action, index),
    onSuccess: (changed) => {
      setKeys(changed.keys ?? []);
      notify(`${K}changed`, { type: 'success' });
      refresh();
    },
    onError: (err: unknown) => notify(err instanceof Error ? err.message : 'app.error.request_failed', { type: 'error' }),
  });
  const busy = managing.isPending;
  if (!record || keys.length === 0) return null;

  const act = (action: KeyAction, index?: number) => managing.mutate({ id: record.id, action, index });
  const enabled = keys.filter((k) => k.status === CHANNEL_ENABLED).length;
  return (
    <Box sx={{ mb: 2 }} role="group" aria-label={translate('resources.channel.fields.keys')}>
      <Stack direction="row" alignItems="center" justifyContent="space-between" sx={{ mb: 1 }}>
        <Typography variant="subtitle2">{translate(`${K}count`, { count: keys.length, enabled })}</Typography>
        {enabled < keys.length && (
          <Button size="small" disabled={busy} onClick={() => act('enable_all_keys')}>
            {translate(`${K}enable_all`)}
          </Button>
        )}
      </Stack>
      {keys.map((key) => {
        const on = key.status === CHANNEL_ENABLED;
        const state = on ? 'enabled' : key.status === CHANNEL_AUTO_DISABLED ? 'auto_disabled' : 'disabled';
        return (
          <Stack
            key={key.index}
            direction="row"
            alignItems="center"
            spacing={1}
            sx={{ py: 0.5, borderTop: 1, borderColor: 'divider' }}
            data-testid={`channel-key-${key.index}`}
          >
            <Typography variant="body2" sx={{ fontFamily: 'monospace', minWidth: 110 }}>
              {translate(`${K}key`, { index: key.index + 1, tail: key.tail })}
            </Typography>
            {on ? (
              <HealthChip health={key.health} />
            ) : (
              <Chip size="small" variant="outlined" color="warning" label={translate(`${K}${state}`)} />
            )}
            <Typography variant="caption" color="text.secondary" sx={{ flex: 1, wordBreak: 'break-word' }}>
              {on ? '' : [key.reason, formatTimestamp(key.disabled_time)].filter(Boolean).join(' · ')}
            </Typography>
            <Button size="small" disabled={busy} onClick={() => act(on ? 'disable_key' : 'enable_key', key.index)}>
              {translate(`${K}${on ? 'disable' : 'enable'}`)}
            </Button>
          </Stack>
        );
      })}
    </Box>
  );
}
