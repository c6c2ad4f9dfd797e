import { Autocomplete, TextField } from '@mui/material';
import { useInput, useTranslate, type Validator } from 'react-admin';

export interface ChipsFieldProps {
  label: string;
  value: string[];
  onChange: (value: string[]) => void;
  /** Suggestions; the current values are always offered too. */
  options: readonly string[];
  /** Allows typing a name that is not among the options (Enter adds it). */
  freeSolo?: boolean;
  error?: boolean;
  helperText?: string;
  onBlur?: () => void;
}

/** A form error as text: react-admin passes a message key, or `{message, args}` from form-level validation. */
export function validationText(translate: (key: string, options?: object) => string, error: unknown): string | undefined {
  if (!error) return undefined;
  if (typeof error === 'string') return translate(error, { _: error });
  if (typeof error === 'object' && 'message' in error) {
    const { message, args } = error as { message: unknown; args?: object };
    if (typeof message === 'string') return translate(message, { _: message, ...args });
  }
  return undefined;
}

/** A list of names edited as chips with suggestions. */
export function ChipsField({ label, value, onChange, options, freeSolo, error, helperText, onBlur }: ChipsFieldProps) {
  const all = [...new Set([...options, ...value])];
  return (
    <Autocomplete
      multiple
      freeSolo={freeSolo}
      disableCloseOnSelect
      options={all}
      value={value}
      onChange={(_, next) => onChange([...new Set(next.map((v) => String(v).trim()).filter((v) => v !== ''))])}
      onBlur={onBlur}
      renderInput={(params) => (
        <TextField {...params} label={label} error={error} helperText={helperText} margin="dense" size="small" />
      )}
      sx={{ width: '100%' }}
    />
  );
}

/** ChipsField bound to a react-admin form field holding a string array. */
export function ChipsInput({
  source,
  label,
  options,
  freeSolo,
  validate,
  helperText,
}: {
  source: string;
  label: string;
  options: readonly string[];
  freeSolo?: boolean;
  validate?: Validator | Validator[];
  helperText?: string;
}) {
  const translate = useTranslate();
  const { field, fieldState } = useInput({ source, validate });
  const value = Array.isArray(field.value) ? (field.value as string[]) : [];
  const message = validationText(translate, fieldState.error?.message);
  return (
    <ChipsField
      label={label}
      value={value}
      onChange={field.onChange}
      onBlur={field.onBlur}
      options={options}
      freeSolo={freeSolo}
      error={!!message}
      helperText={message ?? helperText}
    />
  );
}
