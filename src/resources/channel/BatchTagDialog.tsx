import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { tagChannels } from './channelApi';

/** Sets one tag on the selected channels (POST /api/channel/batch/tag); an empty tag is refused. */
export function BatchTagDialog({
  open,
  ids,
  onClose,
  onDone,
}: {
  open: boolean;
  ids: number[];
  onClose: () => void;
  onDone: () => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const [tag, setTag] = useState('');
  const [empty, setEmpty] = useState(false);
  const [saving, setSaving] = useState(false);
  const close = () => {
    setTag('');
    setEmpty(false);
    onClose();
  };
  const save = () => {
    const value = tag.trim();
    if (value === '') {
      setEmpty(true);
      return;
    }
    setSaving(true);
    tagChannels(ids, value)
      .then((count) => {
        notify('resources.channel.notification.tagged', { type: 'success', messageArgs: { count, tag: value } });
        setTag('');
        onDone();
      })
      .catch((err: unknown) => notify(err instanceof Error ? err.message : 'app.error.request_failed', { type: 'error' }))
      .finally(() => setSaving(false));
  };
  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="xs">
      <DialogTitle>{translate('resources.channel.batch_tag.title', { count: ids.length })}</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          fullWidth
          margin="dense"
          label={translate('resources.channel.fields.tag')}
          value={tag}
          error={empty}
          helperText={empty ? translate('resources.channel.validation.tag_empty') : translate('resources.channel.batch_tag.hint')}
          onChange={(e) => {
            setTag(e.target.value);
            setEmpty(false);
          }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{translate('ra.action.cancel')}</Button>
        <Button variant="contained" disabled={saving} onClick={save}>
          {translate('ra.action.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
