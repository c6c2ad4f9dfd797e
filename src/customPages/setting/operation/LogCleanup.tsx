/** Deletes the usage logs older than a chosen moment (DELETE /api/log/?target_timestamp=seconds), after a confirmation. */
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Confirm, useNotify, useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useGateway } from '../../../api/customMethods';

/** A datetime-local value (local time) as Unix seconds; null when empty or not a date. */
export function cleanupTimestamp(value: string): number | null {
  if (!value) return null;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) && ms > 0 ? Math.floor(ms / 1000) : null;
}

export function LogCleanup() {
  const translate = useTranslate();
  const notify = useNotify();
  const [when, setWhen] = useState('');
  const [confirming, setConfirming] = useState(false);

  const ask = () => {
    if (cleanupTimestamp(when) === null) {
      notify('settings_operation.log.pick_time', { type: 'warning' });
      return;
    }
    setConfirming(true);
  };

  const gateway = useGateway();
  const cleaning = useMutation({
    mutationFn: (before: number) => gateway.cleanLogs(before),
    onSuccess: (count) => notify('settings_operation.log.cleaned', { type: 'success', messageArgs: { count } }),
    onError: (err: Error) =>
      notify(`${translate('settings_operation.log.clean_failed')}: ${translate(err.message, { _: err.message })}`, {
        type: 'error',
      }),
  });
  const busy = cleaning.isPending;

  const clean = () => {
    setConfirming(false);
    const target = cleanupTimestamp(when);
    if (target !== null) cleaning.mutate(target);
  };

  return (
    <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
      <TextField
        type="datetime-local"
        label={translate('settings_operation.log.before')}
        value={when}
        onChange={(e) => setWhen(e.target.value)}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <Button variant="outlined" color="error" onClick={ask} disabled={busy}>
        {translate('settings_operation.log.clean')}
      </Button>
      <Confirm
        isOpen={confirming}
        title="settings_operation.log.confirm_title"
        content="settings_operation.log.confirm_content"
        translateOptions={{ when: when.replace('T', ' ') }}
        onConfirm={clean}
        onClose={() => setConfirming(false)}
      />
    </Box>
  );
}
