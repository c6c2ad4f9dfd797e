import type { ReactNode } from 'react';
import { Box, Chip, Stack, Typography } from '@mui/material';
import {
  AutocompleteArrayInput,
  BooleanInput,
  NumberInput,
  SelectInput,
  TextInput,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { api } from '../../api/client';
import { formatQuota } from '../../status/status';
import { useChoices, type Choice, type FieldSchema, type Mode } from '../schema';
import {
  COUNT_PRESETS,
  EXPIRY_SHORTCUTS,
  expiryFromNow,
  formatExpiry,
  QUOTA_PRESETS,
  validateCount,
  validateExpiry,
  validateName,
  validateQuota,
} from './tokenForm';
import type { TokenRecord, UserGroups } from './types';

const label = (source: string) => `resources.tokens.fields.${source}`;

/** Model names the person may limit a token to (GET /api/user/models), loaded once. */
const modelsField: FieldSchema = {
  source: 'model_limits',
  type: 'select',
  choices: {
    key: 'token_models',
    load: async () => (await api.get<string[]>('/api/user/models')).map((name) => ({ id: name, name })),
  },
};

/** The groups the person may use (GET /api/user/self/groups) with their description and ratio. */
const groupField: FieldSchema = {
  source: 'group',
  type: 'select',
  choices: {
    key: 'token_groups',
    load: async () =>
      Object.entries(await api.get<UserGroups>('/api/user/self/groups')).map(([name, { desc, ratio }]) => ({
        id: name,
        name: `${desc ? `${name} · ${desc}` : name} (×${ratio})`,
      })),
  },
};

function splitModels(value: unknown): string[] {
  return typeof value === 'string' && value ? value.split(',').filter(Boolean) : [];
}

/** Adds the current values to loaded choices, so a value no longer offered still shows. */
function withCurrent(choices: Choice[], values: string[]): Choice[] {
  const known = new Set(choices.map((c) => String(c.id)));
  const missing = [...new Set(values)].filter((v) => !known.has(v));
  return [...choices, ...missing.map((v) => ({ id: v, name: v }))];
}

/** A row of small buttons that set a value. */
function Presets({ children }: { children: ReactNode }) {
  return (
    <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap sx={{ mt: -1, mb: 2 }}>
      {children}
    </Stack>
  );
}

function QuotaInputs() {
  const translate = useTranslate();
  const { setValue } = useFormContext();
  const unlimited = Boolean(useWatch({ name: 'unlimited_quota' }));
  const quota = Number(useWatch({ name: 'remain_quota' })) || 0;
  return (
    <>
      <NumberInput
        source="remain_quota"
        label={label('remain_quota')}
        step={1}
        // Only the <input> is disabled: a disabled form field would drop the value from the saved body.
        InputProps={{ disabled: unlimited }}
        validate={validateQuota}
        helperText={translate('resources.tokens.helper.quota', { amount: formatQuota(quota) })}
      />
      <Presets>
        {QUOTA_PRESETS.map((preset) => (
          <Chip
            key={preset}
            size="small"
            variant="outlined"
            label={formatQuota(preset)}
            disabled={unlimited}
            onClick={() => setValue('remain_quota', preset, { shouldDirty: true, shouldValidate: true })}
          />
        ))}
      </Presets>
      <BooleanInput source="unlimited_quota" label={label('unlimited_quota')} />
    </>
  );
}

function ExpiryInput() {
  const translate = useTranslate();
  const { setValue } = useFormContext();
  return (
    <>
      <TextInput
        source="expired_time"
        label={label('expired_time')}
        validate={validateExpiry}
        format={(value: unknown) => (typeof value === 'number' ? formatExpiry(value) : String(value ?? ''))}
        parse={(value: string) => value}
        helperText="resources.tokens.helper.expiry"
      />
      <Presets>
        {EXPIRY_SHORTCUTS.map(({ key, seconds }) => (
          <Chip
            key={key}
            size="small"
            variant="outlined"
            label={translate(`resources.tokens.expiry.${key}`)}
            onClick={() => setValue('expired_time', expiryFromNow(seconds), { shouldDirty: true, shouldValidate: true })}
          />
        ))}
      </Presets>
    </>
  );
}

function ModelLimitInputs() {
  const enabled = Boolean(useWatch({ name: 'model_limits_enabled' }));
  const current = splitModels(useWatch({ name: 'model_limits' }));
  const { choices, isPending } = useChoices(modelsField);
  return (
    <>
      <BooleanInput source="model_limits_enabled" label={label('model_limits_enabled')} />
      <AutocompleteArrayInput
        source="model_limits"
        label={label('model_limits')}
        choices={withCurrent(choices, current)}
        isPending={isPending}
        disabled={!enabled}
        format={splitModels}
        parse={(value: unknown) => (Array.isArray(value) ? value.join(',') : '')}
        translateChoice={false}
      />
    </>
  );
}

function GroupInput() {
  const translate = useTranslate();
  const record = useRecordContext<TokenRecord>();
  const current = useWatch({ name: 'group' }) as unknown;
  const { choices, isPending } = useChoices(groupField);
  const values = [current, record?.group].filter((v): v is string => typeof v === 'string' && v !== '');
  return (
    <SelectInput
      source="group"
      label={label('group')}
      choices={withCurrent(choices, values)}
      isPending={isPending}
      emptyText={translate('resources.tokens.helper.group_default')}
      emptyValue=""
      translateChoice={false}
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
        helperText="resources.tokens.helper.count"
      />
      <Presets>
        {COUNT_PRESETS.map((preset) => (
          <Chip
            key={preset}
            size="small"
            variant="outlined"
            label={translate('resources.tokens.helper.count_preset', { count: preset })}
            onClick={() => setValue('count', preset, { shouldDirty: true, shouldValidate: true })}
          />
        ))}
      </Presets>
    </>
  );
}

/** The inputs of the create and edit drawers (spec 5 and 9). */
export function TokenInputs({ mode }: { mode: Mode }) {
  const translate = useTranslate();
  return (
    <Box sx={{ width: '100%' }}>
      <TextInput source="name" label={label('name')} validate={validateName} fullWidth />
      <QuotaInputs />
      <ExpiryInput />
      <ModelLimitInputs />
      <TextInput
        source="allow_ips"
        label={label('allow_ips')}
        multiline
        minRows={2}
        fullWidth
        parse={(value: string) => value}
        helperText="resources.tokens.helper.allow_ips"
      />
      <GroupInput />
      {mode === 'create' && (
        <>
          <CountInput />
          <Typography variant="body2" color="text.secondary">
            {translate('resources.tokens.helper.batch')}
          </Typography>
        </>
      )}
    </Box>
  );
}
