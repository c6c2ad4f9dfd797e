import { Box } from '@mui/material';
import { BooleanInput, FormDataConsumer, NumberInput, PasswordInput, SelectInput, TextInput, type Validator } from 'react-admin';
import { formatQuota } from '../../status/status';
import { useChoices } from './choices';
import { labelKey } from './format';
import type { FieldSchema, Mode } from './types';
import { validatorsFor } from './validation';

interface InputProps {
  field: FieldSchema;
  /** Repeated from `field` because react-admin's filter form reads it from the element's props. */
  source?: string;
  /** The resource whose `resources.<name>.fields.*` label the input shows. */
  resource: string;
  mode: Mode | 'filter';
  readOnly?: boolean;
  alwaysOn?: boolean;
}

function SelectFieldInput({
  field,
  label,
  validate,
  readOnly,
  alwaysOn,
  defaultValue,
}: {
  field: FieldSchema;
  label: string | undefined;
  validate: Validator[];
  readOnly?: boolean;
  alwaysOn?: boolean;
  defaultValue: unknown;
}) {
  const { choices, isPending } = useChoices(field);
  return (
    <SelectInput
      isPending={isPending}
      source={field.source}
      label={label}
      choices={choices}
      validate={validate}
      readOnly={readOnly}
      alwaysOn={alwaysOn}
      defaultValue={defaultValue}
      emptyText=""
      translateChoice={false}
      helperText={false}
    />
  );
}

/** The form (or filter) input of a schema field: its own `input`, or one by type. */
export function SchemaInput({ field, resource, mode, readOnly, alwaysOn }: InputProps) {
  const filter = mode === 'filter' && typeof field.showInFilter === 'object' ? field.showInFilter : undefined;
  // Without a label of its own react-admin shows `resources.<name>.fields.<source>` (or the source, humanized).
  const label = filter?.label ?? field.label;
  const Custom = mode === 'filter' ? filter?.input : field.input;
  if (Custom) {
    const key = label ?? labelKey(resource, field.source);
    return <Custom field={field} source={field.source} label={key} mode={mode} readOnly={readOnly} alwaysOn={alwaysOn} />;
  }
  const validate = mode === 'filter' || readOnly ? [] : validatorsFor(field.validate, mode);
  const common = {
    source: field.source,
    label,
    validate,
    readOnly,
    alwaysOn,
    defaultValue: mode === 'create' ? field.defaultValue : undefined,
    ...(field.hint && mode !== 'filter' ? { helperText: field.hint } : {}),
  };
  switch (field.type) {
    case 'select':
      return (
        <SelectFieldInput
          field={field}
          label={label}
          validate={validate}
          readOnly={readOnly}
          alwaysOn={alwaysOn}
          defaultValue={common.defaultValue}
        />
      );
    case 'boolean':
      return <BooleanInput {...common} />;
    case 'password':
      return <PasswordInput {...common} autoComplete="new-password" />;
    case 'number':
    case 'id':
      return <NumberInput {...common} />;
    case 'quota':
      return (
        <NumberInput
          {...common}
          step={1}
          format={(v: unknown) => (v === undefined || v === null ? '' : Number(v))}
          InputProps={{ endAdornment: <QuotaAdornment source={field.source} /> }}
        />
      );
    default:
      return mode !== 'filter' && field.multiline ? <TextInput {...common} multiline minRows={2} /> : <TextInput {...common} />;
  }
}

/** The dollar value beside a quota input, kept in step with what is typed. */
function QuotaAdornment({ source }: { source: string }) {
  return (
    <FormDataConsumer>
      {({ formData }) => (
        <Box component="span" sx={{ color: 'text.secondary', whiteSpace: 'nowrap', ml: 1 }}>
          {formatQuota(Number((formData as Record<string, unknown>)[source]) || 0)}
        </Box>
      )}
    </FormDataConsumer>
  );
}
