/**
 * The token form's own inputs (the schema's `input` slots): name, quota with presets (or
 * unlimited), expiry with shortcuts, model limits, allowed IPs, group, and the batch count.
 */
import { Typography } from '@mui/material';
import { AutocompleteArrayInput, BooleanInput, NumberInput, TextInput, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { useChoices, type FieldSchema } from '../schema';
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
  validateRequestLimit,
  validateTpm,
} from './tokenForm';

const label = (source: string) => `resources.token.fields.${source}`;

/** Model names the person may limit a token to (GET /api/user/models), loaded once. */
const modelsField: FieldSchema = {
  source: 'model_limits',
  type: 'select',
  choices: {
    key: 'token_models',
    load: async (gateway) => (await gateway.getMyModels()).map((name) => ({ id: name, name })),
  },
};

/** The groups the person may use (GET /api/user/self/groups) with their description and ratio. */
const groupField: FieldSchema = {
  source: 'group',
  type: 'select',
  choices: {
    key: 'token_groups',
    load: async (gateway) =>
      Object.entries(await gateway.getMyGroups()).map(([name, { desc, ratio }]) => ({
        id: name,
        name: `${desc ? `${name} · ${desc}` : name} (×${ratio})`,
      })),
  },
};

function splitModels(value: unknown): string[] {
  return typeof value === 'string' && value ? value.split(',').filter(Boolean) : [];
}

/** Remaining quota with presets, and the unlimited switch that turns it off. */
export function QuotaInputs() {
  const unlimited = Boolean(useWatch({ name: 'unlimited_quota' }));
  return (
    <>
      <QuotaInput
        source="remain_quota"
        label={label('remain_quota')}
        helper="resources.token.helper.quota"
        presets={QUOTA_PRESETS}
        validate={validateQuota}
        disabled={unlimited}
      />
      <BooleanInput source="unlimited_quota" label={label('unlimited_quota')} />
    </>
  );
}

export function ExpiryInput() {
  const translate = useTranslate();
  return (
    <>
      <TextInput
        source="expired_time"
        label={label('expired_time')}
        validate={validateExpiry}
        format={(value: unknown) => (typeof value === 'number' ? formatExpiry(value) : String(value ?? ''))}
        parse={(value: string) => value}
        helperText="resources.token.helper.expiry"
      />
      <PresetChips
        source="expired_time"
        presets={EXPIRY_SHORTCUTS}
        label={({ key }) => translate(`resources.token.expiry.${key}`)}
        value={({ seconds }) => expiryFromNow(seconds)}
      />
    </>
  );
}

/** The model-limit switch and the models the token is limited to. */
export function ModelLimitInputs() {
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

export function NameInput() {
  return <TextInput source="name" label={label('name')} validate={validateName} fullWidth />;
}

export function AllowIpsInput() {
  return (
    <TextInput
      source="allow_ips"
      label={label('allow_ips')}
      multiline
      minRows={2}
      fullWidth
      parse={(value: string) => value}
      helperText="resources.token.helper.allow_ips"
    />
  );
}

/** Tokens (prompt + completion) per minute across every gateway node; 0 or empty is no limit. */
export function TpmInput() {
  return (
    <NumberInput
      source="tpm_limit"
      label={label('tpm_limit')}
      step={1000}
      min={0}
      validate={validateTpm}
      helperText="resources.token.helper.tpm_limit"
    />
  );
}

/** Calls in flight, requests per minute and per day, across every gateway node; 0 or empty is no limit. */
export function RequestLimitInputs() {
  return (
    <>
      {(['max_concurrency', 'rpm_limit', 'rpd_limit'] as const).map((source) => (
        <NumberInput
          key={source}
          source={source}
          label={label(source)}
          step={1}
          min={0}
          validate={validateRequestLimit}
          helperText={`resources.token.helper.${source}`}
        />
      ))}
    </>
  );
}

/** The owner's opt-in to keeping the bodies of this token's calls (shown in the log details). */
export function LogBodiesInput() {
  return <BooleanInput source="log_bodies" label={label('log_bodies')} helperText="resources.token.helper.log_bodies" />;
}

export function GroupInput() {
  return <CurrentValueSelectInput field={groupField} label={label('group')} emptyText="resources.token.helper.group_default" />;
}

/** How many tokens to make at once, on create. */
export function BatchCountInput() {
  const translate = useTranslate();
  return (
    <>
      <CountInput resource="token" presets={COUNT_PRESETS} validate={validateCount} />
      <Typography variant="body2" color="text.secondary">
        {translate('resources.token.helper.batch')}
      </Typography>
    </>
  );
}
