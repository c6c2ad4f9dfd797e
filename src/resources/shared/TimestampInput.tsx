/**
 * A filter input: a local date and time picker whose value is Unix seconds, as the log and task
 * APIs take them (usage logs, task log, drawing log); wide enough for an English date with AM/PM.
 */
import { TextField } from '@mui/material';
import { useInput, useTranslate } from 'react-admin';
import { fromLocalInput, toLocalInput } from '../log/format';

/** `alwaysOn` is read by react-admin's filter form, not by the input. */
export function TimestampInput({ source, label }: { source: string; label: string; alwaysOn?: boolean }) {
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
      sx={{ minWidth: 244, mb: '4px' }}
    />
  );
}
