/** The inputs of the redemption code drawers: name, quota with presets, group, and the batch count on create. */
import type { ReactNode } from 'react';
import { Box, Chip, Stack } from '@mui/material';
import { NumberInput, SelectInput, TextInput, useRecordContext, useTranslate } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { api } from '../../api/client';
import { formatQuota } from '../../status/status';
import { useChoices, type FieldSchema, type Mode } from '../schema';
import type { RedemptionRecord } from './types';
import {
  COUNT_PRESETS,
  QUOTA_PRESETS,
  validateCount,
  validateCreateName,
  validateEditName,
  validateQuota,
} from './redemptionForm';

const label = (source: string) => `resources.redemptions.fields.${source}`;

/** Every group that exists (GET /api/group/), shared with the users screen's loader. */
const groupField: FieldSchema = {
  source: 'group',
  type: 'select',
  choices: { key: 'groups', load: async () => (await api.get<string[]>('/api/group/')).map((name) => ({ id: name, name })) },
};

function Presets({ children }: { children: ReactNode }) {
  return (
    <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap sx={{ mt: -1, mb: 2 }}>
      {children}
    </Stack>
  );
}

function QuotaInput() {
  const translate = useTranslate();
  const { setValue } = useFormContext();
  const quota = Number(useWatch({ name: 'quota' })) || 0;
  return (
    <>
      <NumberInput
        source="quota"
        label={label('quota')}
        step={1}
        validate={validateQuota}
        helperText={translate('resources.redemptions.helper.quota', { amount: formatQuota(quota) })}
      />
      <Presets>
        {QUOTA_PRESETS.map((preset) => (
          <Chip
            key={preset}
            size="small"
            variant="outlined"
            label={formatQuota(preset)}
            onClick={() => setValue('quota', preset, { shouldDirty: true, shouldValidate: true })}
          />
        ))}
      </Presets>
    </>
  );
}

function GroupInput() {
  const translate = useTranslate();
  const record = useRecordContext<RedemptionRecord>();
  const current = useWatch({ name: 'group' }) as unknown;
  const { choices, isPending } = useChoices(groupField);
  // The stored group shows even before the list loads, or once it no longer exists.
  const values = [current, record?.group].filter((v): v is string => typeof v === 'string' && v !== '');
  const all = [
    ...choices,
    ...[...new Set(values)].filter((v) => !choices.some((c) => c.id === v)).map((v) => ({ id: v, name: v })),
  ];
  return (
    <SelectInput
      source="group"
      label={label('group')}
      choices={all}
      isPending={isPending}
      emptyText={translate('resources.redemptions.any_group')}
      emptyValue=""
      translateChoice={false}
      helperText="resources.redemptions.helper.group"
    />
  );
}

function CountInput() {
  const translate = useTranslate();
  const { setValue } = useFormContext();
  return (
    <>
      <NumberInput
        source="count"
        label={label('count')}
        step={1}
        validate={validateCount}
        helperText="resources.redemptions.helper.count"
      />
      <Presets>
        {COUNT_PRESETS.map((preset) => (
          <Chip
            key={preset}
            size="small"
            variant="outlined"
            label={translate('resources.redemptions.helper.count_preset', { count: preset })}
            onClick={() => setValue('count', preset, { shouldDirty: true, shouldValidate: true })}
          />
        ))}
      </Presets>
    </>
  );
}

export function RedemptionInputs({ mode }: { mode: Mode }) {
  return (
    <Box sx={{ width: '100%' }}>
      <TextInput
        source="name"
        label={label('name')}
        validate={mode === 'create' ? validateCreateName : validateEditName}
        helperText={mode === 'create' ? 'resources.redemptions.helper.name' : false}
        fullWidth
      />
      <QuotaInput />
      <GroupInput />
      {mode === 'create' && <CountInput />}
    </Box>
  );
}
