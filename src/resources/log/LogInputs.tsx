/** The usage-log filters that are not plain text: the log type with "all". */
import { SelectInput } from 'react-admin';
import type { InputSlotProps } from '../schema';
import { LOG_TYPE_LABELS } from './types';

const TYPE_CHOICES = Object.entries(LOG_TYPE_LABELS).map(([id, { key }]) => ({
  id: Number(id),
  name: `resources.log.types.${key}`,
}));

export function LogTypeFilter({ source, label }: InputSlotProps) {
  return (
    <SelectInput
      source={source}
      label={label}
      choices={TYPE_CHOICES}
      emptyText="resources.log.types.all"
      emptyValue=""
      helperText={false}
    />
  );
}
