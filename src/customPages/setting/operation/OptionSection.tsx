/**
 * One card of settings rendered from field specs: switches, inputs and JSON text areas over the
 * stored option strings, held by react-hook-form under their option keys (typed from the server's
 * option registry), checked before saving (the problem shows under the field and as a toast) and
 * saved through useOptions, which sends only the keys that changed.
 */
import { useMemo, type ReactNode } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { Controller, useForm, type FieldErrors } from 'react-hook-form';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { OptionsState } from '../useOptions';
import { checkField, hintKey, labelKey, pickValues, type FieldSpec, type FormValues } from './optionFields';

interface Props {
  /** Names the card: `settings_operation.sections.<id>`. */
  id: string;
  fields: readonly FieldSpec[];
  options: OptionsState;
  /** Extra buttons beside save. */
  actions?: ReactNode;
  /** Extra content under the fields (e.g. the log cleanup). */
  children?: ReactNode;
}

export function OptionSection({ id, fields, options, actions, children }: Props) {
  const translate = useTranslate();
  const notify = useNotify();
  const stored = useMemo(() => pickValues(fields, options.values), [fields, options.values]);
  // `values`: the form starts from the stored options and follows them when they change (after its own save or a reload).
  const { control, handleSubmit, getValues, formState } = useForm<FormValues>({ values: stored });
  const title = translate(`settings_operation.sections.${id}`);

  const problemOf = (spec: FieldSpec, value: string | undefined) => {
    const problem = checkField(spec, value ?? '');
    return problem ? translate(problem.message, problem.args) : true;
  };

  // Keys with a dot (gemini.safety_settings) are paths to react-hook-form: read each back by its key.
  const save = handleSubmit(
    async () => {
      await options.save(Object.fromEntries(fields.map((spec) => [spec.key, getValues(spec.key) ?? ''])));
    },
    (errors: FieldErrors<FormValues>) => {
      const first = fields.find((spec) => getError(errors, spec.key));
      const message = first && getError(errors, first.key);
      if (first && message) notify(`${translate(labelKey(first.key))}: ${message}`, { type: 'warning' });
    },
  );

  const field = (spec: FieldSpec) => (
    <Controller
      key={spec.key}
      name={spec.key}
      control={control}
      rules={{ validate: (value) => problemOf(spec, value) }}
      render={({ field: input, fieldState }) => {
        const label = translate(labelKey(spec.key));
        const problem = fieldState.error?.message;
        const helper = problem ?? (spec.hint ? translate(hintKey(spec.key)) : undefined);
        const value = input.value ?? '';
        const common = { label, value, inputRef: input.ref, onBlur: input.onBlur, error: !!problem, helperText: helper };
        switch (spec.kind) {
          case 'switch':
            return (
              <Box>
                <FormControlLabel
                  control={
                    <Switch
                      checked={value === 'true'}
                      inputRef={input.ref}
                      onChange={(e) => input.onChange(String(e.target.checked))}
                    />
                  }
                  label={label}
                />
                {helper && <FormHelperText sx={{ mt: -0.5 }}>{helper}</FormHelperText>}
              </Box>
            );
          case 'select':
            return (
              <TextField {...common} select onChange={(e) => input.onChange(e.target.value)}>
                {spec.choices.map((choice) => (
                  <MenuItem key={choice} value={choice}>
                    {translate(`settings_operation.choices.${choice}`)}
                  </MenuItem>
                ))}
              </TextField>
            );
          case 'json':
          case 'text': {
            const multiline = spec.kind === 'json' || (spec.lines ?? 1) > 1;
            return (
              <TextField
                {...common}
                onChange={(e) => input.onChange(e.target.value)}
                multiline={multiline}
                minRows={multiline ? (spec.kind === 'json' ? 4 : spec.lines) : undefined}
                maxRows={multiline ? 16 : undefined}
                slotProps={spec.kind === 'json' ? { htmlInput: { style: { fontFamily: 'monospace' } } } : undefined}
                sx={multiline ? { gridColumn: '1 / -1' } : undefined}
              />
            );
          }
          case 'int':
          case 'float':
            return (
              <TextField
                {...common}
                onChange={(e) => input.onChange(e.target.value)}
                slotProps={{ htmlInput: { inputMode: spec.kind === 'int' ? 'numeric' : 'decimal' } }}
              />
            );
        }
      }}
    />
  );

  const switches = fields.filter((spec) => spec.kind === 'switch');
  const inputs = fields.filter((spec) => spec.kind !== 'switch');
  return (
    <Card variant="outlined" component="section" aria-label={title}>
      <CardContent>
        <Typography variant="h6" sx={{ mb: 2 }}>
          {title}
        </Typography>
        <Stack spacing={2}>
          {inputs.length > 0 && (
            <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
              {inputs.map(field)}
            </Box>
          )}
          {switches.length > 0 && <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 3 }}>{switches.map(field)}</Box>}
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            <Button variant="contained" onClick={() => void save()} disabled={formState.isSubmitting || options.loading}>
              {translate('settings_operation.save_section', { section: title })}
            </Button>
            {actions}
          </Box>
          {children}
        </Stack>
      </CardContent>
    </Card>
  );
}

/** A field's message by its option key, which react-hook-form may have nested at its dots. */
function getError(errors: FieldErrors<FormValues>, key: string): string | undefined {
  let node: unknown = errors;
  for (const part of key.split('.'))
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  const message = node && typeof node === 'object' ? (node as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : undefined;
}
