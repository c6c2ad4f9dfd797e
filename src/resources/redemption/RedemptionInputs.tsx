/**
 * The redemption code form's own inputs (the schema's `input` slots): name, quota with presets,
 * group, expiry (never, or a date and time), batch count.
 */
import { FormControlLabel, FormHelperText, Stack, Switch, TextField } from '@mui/material';
import { InputHelperText, TextInput, useInput, useTranslate } from 'react-admin';
import type { FieldSchema, InputSlotProps } from '../schema';
import { fromLocalInput, toLocalInput } from '../log/format';
import { CountInput, CurrentValueSelectInput, QuotaInput } from '../shared/inputs';
import {
  COUNT_PRESETS,
  DEFAULT_EXPIRY_SECONDS,
  NEVER_EXPIRES,
  QUOTA_PRESETS,
  parseExpiry,
  validateCount,
  validateCreateName,
  validateEditName,
  validateExpiry,
  validateQuota,
} from './redemptionForm';

const label = (source: string) => `resources.redemption.fields.${source}`;

/** Every group that exists (GET /api/group/), shared with the users screen's loader. */
const groupField: FieldSchema = {
  source: 'group',
  type: 'select',
  choices: { key: 'groups', load: async (gateway) => (await gateway.getGroupNames()).map((name) => ({ id: name, name })) },
};

/** On create an empty name becomes the formatted quota; on edit a name is needed. */
export function NameInput({ mode }: InputSlotProps) {
  return (
    <TextInput
      source="name"
      label={label('name')}
      validate={mode === 'create' ? validateCreateName : validateEditName}
      helperText={mode === 'create' ? 'resources.redemption.helper.name' : false}
      fullWidth
    />
  );
}

export function QuotaPresetInput() {
  return (
    <QuotaInput
      source="quota"
      label={label('quota')}
      helper="resources.redemption.helper.quota"
      presets={QUOTA_PRESETS}
      validate={validateQuota}
    />
  );
}

export function GroupInput() {
  return (
    <CurrentValueSelectInput
      field={groupField}
      label={label('group')}
      emptyText="resources.redemption.any_group"
      helperText="resources.redemption.helper.group"
    />
  );
}

export function BatchCountInput() {
  return <CountInput resource="redemption" presets={COUNT_PRESETS} validate={validateCount} />;
}

/** Never expires (0), or a local date and time; turning "never" off starts a week from now. */
export function ExpiryInput({ mode }: InputSlotProps) {
  const translate = useTranslate();
  const {
    field,
    fieldState: { error },
  } = useInput({ source: 'expired_time', validate: validateExpiry(mode === 'create' ? 'create' : 'edit') });
  const seconds = parseExpiry(field.value);
  const never = seconds === NEVER_EXPIRES;
  return (
    <Stack spacing={0.5} sx={{ mb: 2 }}>
      <FormControlLabel
        label={translate('resources.redemption.expiry.never')}
        control={
          <Switch
            checked={never}
            onChange={(event) =>
              field.onChange(event.target.checked ? NEVER_EXPIRES : Math.floor(Date.now() / 1000) + DEFAULT_EXPIRY_SECONDS)
            }
          />
        }
      />
      {!never && (
        <TextField
          type="datetime-local"
          size="small"
          label={translate(label('expired_time'))}
          value={toLocalInput(seconds)}
          onChange={(event) => field.onChange(fromLocalInput(event.target.value) ?? '')}
          onBlur={field.onBlur}
          error={!!error}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1 } }}
        />
      )}
      <FormHelperText error={!!error}>
        <InputHelperText error={error?.message} helperText="resources.redemption.helper.expiry" />
      </FormHelperText>
    </Stack>
  );
}
