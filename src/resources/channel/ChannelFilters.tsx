/** The channel search's select filters: status by the API's names (empty = all), and group. */
import { SelectInput } from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { InputSlotProps } from '../schema';
import { useGroupNames } from './ModelsInput';

const STATUSES = ['enabled', 'disabled', 'auto_disabled'] as const;

export function StatusFilter({ source, label }: InputSlotProps) {
  return (
    <SelectInput
      source={source}
      label={label}
      choices={STATUSES.map((status) => ({ id: status, name: `resources.channel.statuses.${status}` }))}
      emptyText="resources.channel.search.all"
      emptyValue=""
      helperText={false}
    />
  );
}

/** The groups that exist, and the searched one even when it is gone. */
export function GroupFilter({ source, label }: InputSlotProps) {
  const groups = useGroupNames();
  const current = useWatch({ name: source }) as unknown;
  const names = [...new Set([...groups, ...(typeof current === 'string' && current ? [current] : [])])];
  return (
    <SelectInput
      source={source}
      label={label}
      choices={names.map((name) => ({ id: name, name }))}
      translateChoice={false}
      emptyText="resources.channel.search.all"
      emptyValue=""
      helperText={false}
    />
  );
}
