/** The filters of the usage logs (/log). */
import type { ReactElement } from 'react';
import { NumberInput, SelectInput, TextInput } from 'react-admin';
import { TimestampInput } from '../shared/TimestampInput';
import { LOG_TYPE_LABELS } from './types';

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
