/**
 * Form inputs shared by the token and redemption-code drawers: preset chips that set a value,
 * a quota with its amount in money and preset amounts, a batch count with presets, and a select
 * whose current value shows even when the loaded choices no longer offer it.
 */
import { Chip, Stack } from '@mui/material';
import { NumberInput, SelectInput, useRecordContext, useTranslate, type RaRecord, type Validator } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { formatQuota } from '../../status/status';
import { useChoices, type Choice, type FieldSchema } from '../schema';

/** Adds the current values to loaded choices, so a value no longer offered still shows. */
export function withCurrent(choices: Choice[], values: string[]): Choice[] {
  const known = new Set(choices.map((c) => String(c.id)));
  const missing = [...new Set(values)].filter((v) => !known.has(v));
  return [...choices, ...missing.map((v) => ({ id: v, name: v }))];
}

/**
 * A row of small buttons under an input; a click sets `source` to `value(preset)` (the preset
 * itself by default), computed at the time of the click.
 */
export function PresetChips<T>({
  source,
  presets,
  label,
  value,
  disabled,
}: {
  source: string;
  presets: readonly T[];
  label: (preset: T) => string;
  value?: (preset: T) => unknown;
  disabled?: boolean;
}) {
  const { setValue } = useFormContext();
  return (
    <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap sx={{ mt: -1, mb: 2 }}>
      {presets.map((preset) => (
        <Chip
          key={label(preset)}
          size="small"
          variant="outlined"
          label={label(preset)}
          disabled={disabled}
          onClick={() => setValue(source, value ? value(preset) : preset, { shouldDirty: true, shouldValidate: true })}
        />
      ))}
    </Stack>
  );
}

/**
 * A whole-number quota with its amount in money in the helper text (`helper` gets `amount`) and
 * preset amounts. `disabled` turns off only the <input> and the chips: a disabled form field would
 * drop the value from the saved body.
 */
export function QuotaInput({
  source,
  label,
  helper,
  presets,
  validate,
  disabled = false,
}: {
  source: string;
  label: string;
  helper: string;
  presets: readonly number[];
  validate: Validator;
  disabled?: boolean;
}) {
  const translate = useTranslate();
  const quota = Number(useWatch({ name: source })) || 0;
  return (
    <>
      <NumberInput
        source={source}
        label={label}
        step={1}
        InputProps={{ disabled }}
        validate={validate}
        helperText={translate(helper, { amount: formatQuota(quota) })}
      />
      <PresetChips source={source} presets={presets} label={formatQuota} disabled={disabled} />
    </>
  );
}

/**
 * How many to make at once (`count`), with presets; its label, helper and preset texts are
 * `resources.<resource>.fields.count`, `.helper.count` and `.helper.count_preset`.
 */
export function CountInput({
  resource,
  presets,
  validate,
}: {
  resource: string;
  presets: readonly number[];
  validate: Validator;
}) {
  const translate = useTranslate();
  return (
    <>
      <NumberInput
        source="count"
        label={`resources.${resource}.fields.count`}
        step={1}
        validate={validate}
        helperText={`resources.${resource}.helper.count`}
      />
      <PresetChips
        source="count"
        presets={presets}
        label={(count) => translate(`resources.${resource}.helper.count_preset`, { count })}
      />
    </>
  );
}

/**
 * A select of loaded choices (an empty value meaning `emptyText`) that also offers the form's
 * current value and the stored record's, so they show before the list loads or once they are gone.
 */
export function CurrentValueSelectInput({
  field,
  label,
  emptyText,
  helperText,
}: {
  field: FieldSchema;
  label: string;
  emptyText: string;
  helperText?: string;
}) {
  const translate = useTranslate();
  const record = useRecordContext<RaRecord>();
  const current = useWatch({ name: field.source }) as unknown;
  const { choices, isPending } = useChoices(field);
  const values = [current, record?.[field.source] as unknown].filter((v): v is string => typeof v === 'string' && v !== '');
  return (
    <SelectInput
      source={field.source}
      label={label}
      choices={withCurrent(choices, values)}
      isPending={isPending}
      emptyText={translate(emptyText)}
      emptyValue=""
      translateChoice={false}
      helperText={helperText}
    />
  );
}
