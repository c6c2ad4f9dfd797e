/**
 * The inputs of the token drawers: name, quota with presets (or unlimited), expiry with shortcuts,
 * model limits, allowed IPs, group, and the batch count on create.
 */
import { Box, Typography } from '@mui/material';
import { AutocompleteArrayInput, BooleanInput, TextInput, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { api } from '../../api/client';
import { useChoices, type FieldSchema, type Mode } from '../schema';
import { CountInput, CurrentValueSelectInput, PresetChips, QuotaInput, withCurrent } from '../shared/inputs';
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
import type { UserGroups } from './types';

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

function QuotaInputs() {
  const unlimited = Boolean(useWatch({ name: 'unlimited_quota' }));
  return (
    <>
      <QuotaInput
        source="remain_quota"
        label={label('remain_quota')}
        helper="resources.tokens.helper.quota"
        presets={QUOTA_PRESETS}
        validate={validateQuota}
        disabled={unlimited}
      />
      <BooleanInput source="unlimited_quota" label={label('unlimited_quota')} />
    </>
  );
}

function ExpiryInput() {
  const translate = useTranslate();
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
      <PresetChips
        source="expired_time"
        presets={EXPIRY_SHORTCUTS}
        label={({ key }) => translate(`resources.tokens.expiry.${key}`)}
        value={({ seconds }) => expiryFromNow(seconds)}
      />
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
      <CurrentValueSelectInput field={groupField} label={label('group')} emptyText="resources.tokens.helper.group_default" />
      {mode === 'create' && (
        <>
          <CountInput i18n="tokens" presets={COUNT_PRESETS} validate={validateCount} />
          <Typography variant="body2" color="text.secondary">
            {translate('resources.tokens.helper.batch')}
          </Typography>
        </>
      )}
    </Box>
  );
}
