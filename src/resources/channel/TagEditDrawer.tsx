import { useState } from 'react';
import { Button, Stack, TextField } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import { editTag } from './channelApi';
import { DrawerFrame } from '../schema/drawers';
import { ChipsField } from './ChipsField';
import { useGroupNames, useModelCatalog } from './ModelsInput';
import { tagChanges, tagFormValues, validateTagForm, type TagFormValues } from './tagForm';
import type { ChannelTagRow } from './types';

const L = 'resources.channel.tag_edit.';

/** Changes every channel of a tag at once: PUT /api/channel/tag with the fields that changed. */
function TagEditForm({ row, onDone }: { row: ChannelTagRow; onDone: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const groups = useGroupNames();
  const { known } = useModelCatalog();
  const [initial] = useState(() => tagFormValues(row));
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof TagFormValues, string>>>({});
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof TagFormValues>(field: K, value: TagFormValues[K]) => setValues((v) => ({ ...v, [field]: value }));
  const errorOf = (field: keyof TagFormValues) => {
    const key = errors[field];
    return key ? { error: true, helperText: translate(key) } : {};
  };

  const save = () => {
    const found = validateTagForm(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const body = tagChanges(row.tag, initial, values);
    if (!body) {
      notify('resources.channel.validation.no_changes', { type: 'info' });
      return;
    }
    setSaving(true);
    editTag(body)
      .then(() => {
        notify('resources.channel.notification.tag_updated', { type: 'success' });
        onDone();
        refresh();
      })
      .catch((err: unknown) => notify(err instanceof Error ? err.message : 'app.error.request_failed', { type: 'error' }))
      .finally(() => setSaving(false));
  };

  return (
    <Stack spacing={1.5} sx={{ p: 2 }}>
      <TextField size="small" label={translate(`${L}tag`)} value={row.tag} slotProps={{ htmlInput: { readOnly: true } }} />
      <TextField
        size="small"
        label={translate(`${L}new_tag`)}
        value={values.new_tag}
        onChange={(e) => set('new_tag', e.target.value)}
        helperText={translate(`${L}new_tag_hint`)}
      />
      <ChipsField
        label={translate('resources.channel.fields.models')}
        value={values.models}
        onChange={(v) => set('models', v)}
        options={known}
        freeSolo
        helperText={translate(`${L}models_hint`)}
      />
      <ChipsField
        label={translate('resources.channel.fields.group')}
        value={values.groups}
        onChange={(v) => set('groups', v)}
        options={groups}
        helperText={translate(`${L}groups_hint`)}
      />
      <TextField
        size="small"
        multiline
        minRows={2}
        label={translate('resources.channel.fields.model_mapping')}
        value={values.model_mapping}
        onChange={(e) => set('model_mapping', e.target.value)}
        {...(errors.model_mapping ? errorOf('model_mapping') : { helperText: translate(`${L}mapping_hint`) })}
      />
      <Stack direction="row" spacing={2}>
        <TextField
          size="small"
          label={translate('resources.channel.fields.priority')}
          value={values.priority}
          onChange={(e) => set('priority', e.target.value)}
          {...errorOf('priority')}
        />
        <TextField
          size="small"
          label={translate('resources.channel.fields.weight')}
          value={values.weight}
          onChange={(e) => set('weight', e.target.value)}
          {...errorOf('weight')}
        />
      </Stack>
      <Stack direction="row" spacing={1} justifyContent="flex-end">
        <Button onClick={onDone}>{translate('ra.action.cancel')}</Button>
        <Button variant="contained" disabled={saving} onClick={save}>
          {translate('ra.action.save')}
        </Button>
      </Stack>
    </Stack>
  );
}

/** The tag row's edit button and the drawer it opens. */
export function TagEditButton({ row, disabled }: { row: ChannelTagRow; disabled?: boolean }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const title = translate(`${L}title`, { tag: row.tag });
  return (
    <>
      <Button size="small" startIcon={<EditIcon />} disabled={disabled} onClick={() => setOpen(true)}>
        {translate('resources.channel.actions.edit_tag')}
      </Button>
      <DrawerFrame open={open} onClose={() => setOpen(false)} title={title}>
        {open && <TagEditForm row={row} onDone={() => setOpen(false)} />}
      </DrawerFrame>
    </>
  );
}
