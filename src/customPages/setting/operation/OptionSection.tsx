/**
 * One card of settings rendered from field specs: switches, inputs and JSON text areas over the
 * stored option strings, checked before saving (the problem shows under the field and as a toast)
 * and saved through useOptions, which sends only the keys that changed.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNotify, useTranslate } from 'react-admin';
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
import { hintKey, labelKey, pickValues, validateFields, type FieldSpec, type FormValues, type Problem } from './optionFields';

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

/** The form starts from the stored values and follows them only when they change (after its own save or a reload). */
function useForm(fields: readonly FieldSpec[], values: FormValues) {
  const stored = useMemo(() => pickValues(fields, values), [fields, values]);
  const signature = JSON.stringify(stored);
  const [form, setForm] = useState<FormValues>(stored);
  useEffect(() => {
    setForm(JSON.parse(signature) as FormValues);
  }, [signature]);
  return [form, setForm] as const;
}

export function OptionSection({ id, fields, options, actions, children }: Props) {
  const translate = useTranslate();
  const notify = useNotify();
  const [form, setForm] = useForm(fields, options.values);
  const [problems, setProblems] = useState<Record<string, Problem>>({});
  const [busy, setBusy] = useState(false);
  const title = translate(`settings_operation.sections.${id}`);

  const set = (key: string, value: string) => {
    setForm((old) => ({ ...old, [key]: value }));
    setProblems(({ [key]: _dropped, ...rest }) => rest);
  };
  const describe = (problem: Problem) => translate(problem.message, problem.args);

  const save = async () => {
    const found = validateFields(fields, form);
    setProblems(found);
    const first = fields.find((field) => found[field.key]);
    if (first) {
      notify(`${translate(labelKey(first.key))}: ${describe(found[first.key]!)}`, { type: 'warning' });
      return;
    }
    setBusy(true);
    try {
      await options.save(form);
    } finally {
      setBusy(false);
    }
  };

  const field = (spec: FieldSpec) => {
    const label = translate(labelKey(spec.key));
    const problem = problems[spec.key];
    const helper = problem ? describe(problem) : spec.hint ? translate(hintKey(spec.key)) : undefined;
    const value = form[spec.key] ?? '';
    switch (spec.kind) {
      case 'switch':
        return (
          <Box key={spec.key}>
            <FormControlLabel
              control={<Switch checked={value === 'true'} onChange={(e) => set(spec.key, String(e.target.checked))} />}
              label={label}
            />
            {helper && <FormHelperText sx={{ mt: -0.5 }}>{helper}</FormHelperText>}
          </Box>
        );
      case 'select':
        return (
          <TextField
            key={spec.key}
            select
            label={label}
            value={value}
            onChange={(e) => set(spec.key, e.target.value)}
            error={!!problem}
            helperText={helper}
          >
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
            key={spec.key}
            label={label}
            value={value}
            onChange={(e) => set(spec.key, e.target.value)}
            multiline={multiline}
            minRows={multiline ? (spec.kind === 'json' ? 4 : spec.lines) : undefined}
            maxRows={multiline ? 16 : undefined}
            error={!!problem}
            helperText={helper}
            slotProps={spec.kind === 'json' ? { htmlInput: { style: { fontFamily: 'monospace' } } } : undefined}
            sx={multiline ? { gridColumn: '1 / -1' } : undefined}
          />
        );
      }
      case 'int':
      case 'float':
        return (
          <TextField
            key={spec.key}
            label={label}
            value={value}
            onChange={(e) => set(spec.key, e.target.value)}
            slotProps={{ htmlInput: { inputMode: spec.kind === 'int' ? 'numeric' : 'decimal' } }}
            error={!!problem}
            helperText={helper}
          />
        );
    }
  };

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
            <Button variant="contained" onClick={save} disabled={busy || options.loading}>
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
