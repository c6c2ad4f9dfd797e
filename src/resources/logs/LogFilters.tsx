import type { ReactElement } from 'react';
import { TextField } from '@mui/material';
import { NumberInput, SelectInput, TextInput, useInput, useTranslate } from 'react-admin';
import { fromLocalInput, toLocalInput } from './format';
import { LOG_TYPE_LABELS } from './types';

interface TimestampInputProps {
  source: string;
  label: string;
  alwaysOn?: boolean;
}

/** A local date and time picker whose value is Unix seconds, as the log API takes them. */
function TimestampInput({ source, label }: TimestampInputProps) {
  const translate = useTranslate();
  const { field } = useInput({
    source,
    format: (value: unknown) => toLocalInput(value === '' || value === null || value === undefined ? null : Number(value)),
    parse: (value: string) => fromLocalInput(value),
  });
  return (
    <TextField
      {...field}
      value={field.value as string}
      type="datetime-local"
      size="small"
      label={translate(label)}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1 } }}
      sx={{ minWidth: 220, mb: '4px' }}
    />
  );
}

const TYPE_CHOICES = Object.entries(LOG_TYPE_LABELS).map(([id, { key }]) => ({
  id: Number(id),
  name: `resources.logs.types.${key}`,
}));

const label = (name: string) => `resources.logs.filters.${name}`;

/** The filter inputs of the usage logs; username and channel only for admins. */
export function logFilters(admin: boolean): ReactElement[] {
  const filters: ReactElement[] = [
    <TimestampInput key="start_timestamp" source="start_timestamp" label={label('start_timestamp')} alwaysOn />,
    <TimestampInput key="end_timestamp" source="end_timestamp" label={label('end_timestamp')} alwaysOn />,
    <SelectInput
      key="type"
      source="type"
      label={label('type')}
      choices={TYPE_CHOICES}
      emptyText="resources.logs.types.all"
      emptyValue=""
      alwaysOn
    />,
    <TextInput key="token_name" source="token_name" label={label('token_name')} alwaysOn />,
    <TextInput key="model_name" source="model_name" label={label('model_name')} alwaysOn />,
    <TextInput key="group" source="group" label={label('group')} alwaysOn />,
  ];
  if (admin) {
    filters.push(
      <TextInput key="username" source="username" label={label('username')} alwaysOn />,
      <NumberInput key="channel" source="channel" label={label('channel')} min={0} step={1} alwaysOn />,
    );
  }
  return filters;
}
