import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Box, Button, Stack, TextField } from '@mui/material';
import { useInput, useNotify, useTranslate } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { useChoices, type FieldSchema } from '../schema';
import { CHANNEL_MODELS_KEY, storedTypeModels } from './channelApi';
import { ChipsField, validationText } from './ChipsField';
import { cleanBaseUrl, type ChannelFormValues, type FormMode } from './channelForm';
import { keyRequired } from '../../../server/shared';
import { ApiError } from '../../api/client';
import { useGateway } from '../../api/customMethods';

/** The group list (GET /api/group/), loaded once and shared with the other screens using `groups`. */
export const GROUP_FIELD: FieldSchema = {
  source: 'group',
  type: 'select',
  choices: { key: 'groups', load: async (gateway) => (await gateway.getGroupNames()).map((name) => ({ id: name, name })) },
};

export function useGroupNames(): string[] {
  return useChoices(GROUP_FIELD).choices.map((c) => String(c.id));
}

/** Model suggestions: every model some channel serves, and each type's provider models (the stored copy first). */
export function useModelCatalog(): { known: string[]; byType: Record<string, string[]> } {
  const gateway = useGateway();
  const served = useQuery({ queryKey: ['channel-served-models'], queryFn: () => gateway.getServedModels(), retry: false });
  const typed = useQuery({
    queryKey: ['channel-type-models'],
    queryFn: async () => {
      const models = await gateway.getTypeModels();
      localStorage.setItem(CHANNEL_MODELS_KEY, JSON.stringify(models));
      return models;
    },
    initialData: storedTypeModels,
    initialDataUpdatedAt: 0,
    retry: false,
  });
  return { known: served.data ?? NO_MODELS, byType: typed.data };
}

const NO_MODELS: string[] = [];

const errorText = (err: unknown) => (err instanceof Error ? err.message : 'app.error.request_failed');

/**
 * The channel's models as chips (free entry allowed), with helpers to fill them: the type's
 * provider models, the upstream's own list, custom names, or clear all.
 */
export function ModelsInput({ mode, type }: { mode: FormMode; type: number }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { field, fieldState } = useInput({ source: 'models' });
  const { getValues } = useFormContext<ChannelFormValues>();
  const { known, byType } = useModelCatalog();
  const [custom, setCustom] = useState('');
  const models = Array.isArray(field.value) ? (field.value as string[]) : [];
  const typeModels = byType[String(type)] ?? [];
  const set = (next: string[]) => field.onChange([...new Set(next)]);

  const gateway = useGateway();
  const upstream = useMutation({
    mutationFn: (ask: () => Promise<string[]>) => ask(),
    onSuccess: (fetched) => {
      set([...models, ...fetched]);
      notify('resources.channel.notification.models_fetched', { type: 'success', messageArgs: { count: fetched.length } });
    },
    onError: (err: unknown) =>
      // The server's refusal already says what failed (and, for a local upstream, how to allow it):
      // shown as it is, not behind a second "fetching failed" prefix.
      err instanceof ApiError && err.status === 200
        ? notify(err.message, { type: 'error' })
        : notify('resources.channel.notification.models_fetch_failed', {
            type: 'error',
            messageArgs: { message: translate(errorText(err)) },
          }),
  });
  const fetching = upstream.isPending;

  const fetchUpstream = () => {
    const values = getValues();
    if (mode === 'edit' && values.id !== undefined) {
      const id = values.id;
      upstream.mutate(() => gateway.fetchModelsOf(id));
    } else {
      const key = (values.key ?? '').split('\n')[0]?.trim() ?? '';
      if (key === '' && keyRequired(Number(values.type))) {
        notify('resources.channel.validation.key_required', { type: 'error' });
        return;
      }
      const body = { base_url: cleanBaseUrl(values.base_url), type: Number(values.type), key };
      upstream.mutate(() => gateway.fetchModelsFor(body));
    }
  };

  const addCustom = () => {
    const names = [
      ...new Set(
        custom
          .split(',')
          .map((m) => m.trim())
          .filter((m) => m !== ''),
      ),
    ];
    if (names.length === 0) return;
    const fresh = names.filter((m) => !models.includes(m));
    if (fresh.length < names.length) notify('resources.channel.notification.models_exist', { type: 'warning' });
    set([...models, ...fresh]);
    setCustom('');
  };

  const message = validationText(translate, fieldState.error?.message);
  return (
    <Box sx={{ width: '100%' }}>
      <ChipsField
        label={translate('resources.channel.fields.models')}
        value={models}
        onChange={set}
        onBlur={field.onBlur}
        options={[...typeModels, ...known]}
        freeSolo
        error={!!message}
        helperText={message ?? translate('resources.channel.helper.models')}
      />
      <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap sx={{ my: 1 }}>
        <Button
          size="small"
          variant="outlined"
          disabled={typeModels.length === 0}
          onClick={() => set([...models, ...typeModels])}
        >
          {translate('resources.channel.actions.fill_type_models')}
        </Button>
        <Button size="small" variant="outlined" disabled={fetching} onClick={fetchUpstream}>
          {translate('resources.channel.actions.fetch_models')}
        </Button>
        <Button size="small" color="warning" onClick={() => set([])}>
          {translate('resources.channel.actions.clear_models')}
        </Button>
      </Stack>
      <Stack direction="row" spacing={1} alignItems="center">
        <TextField
          size="small"
          fullWidth
          value={custom}
          onChange={(e) => setCustom(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              addCustom();
            }
          }}
          label={translate('resources.channel.fields.custom_models')}
        />
        <Button size="small" variant="outlined" onClick={addCustom}>
          {translate('resources.channel.actions.add_models')}
        </Button>
      </Stack>
    </Box>
  );
}
