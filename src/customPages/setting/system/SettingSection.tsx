/**
 * The pieces every section of the system and other settings tabs is made of: `useSection` (the
 * section's own form over its option keys, and a save that checks, sends only what changed and
 * forgets typed secrets), the card with its title and save button, a text field, a switch, and
 * `LoadedOptions` (renders the sections once the options are loaded, so each form starts from them).
 */
import type { ReactNode } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { useController, useForm, useWatch, type Control } from 'react-hook-form';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useReloadStatus } from '../../../status/status';
import type { OptionKey, OptionsState, OptionValues } from '../useOptions';
import { clearSecrets, initialForm, isTrue, savePayload, SECRET_KEYS } from './systemForm';

/**
 * Turns the form into what is saved: the values (possibly normalised), an i18n key of a message to
 * show instead, or null when the preparation already told the person why it stopped.
 */
export type Prepare = (form: OptionValues) => OptionValues | string | null | Promise<OptionValues | string | null>;

export interface Section {
  /** The section's values as typed now, by option key. */
  form: OptionValues;
  set(key: OptionKey, value: string): void;
  setForm(update: (form: OptionValues) => OptionValues): void;
  busy: boolean;
  submit(prepare?: Prepare): Promise<void>;
  /** The react-hook-form the section's fields are bound to. */
  control: Control<OptionValues>;
}

/**
 * A section's form: react-hook-form holding its option keys (typed from the server's option
 * registry), started from the loaded values once; a save sends what changed and empties the secrets.
 */
export function useSection(options: OptionsState, keys: readonly OptionKey[]): Section {
  const notify = useNotify();
  const reloadStatus = useReloadStatus();
  const { control, getValues, setValue, handleSubmit, formState } = useForm<OptionValues>({
    defaultValues: initialForm(options.values, keys),
  });
  // Subscribes the section to every change, so what reads `form` shows what is typed.
  useWatch({ control });
  // Keys with a dot (oidc.well_known) are paths to react-hook-form: each is read back by its key.
  const current = (): OptionValues => Object.fromEntries(keys.map((key) => [key, getValues(key) ?? '']));
  const set = (key: OptionKey, value: string) => setValue(key, value, { shouldDirty: true });
  const setForm = (update: (form: OptionValues) => OptionValues) => {
    const next = update(current());
    for (const key of keys) set(key, next[key] ?? '');
  };

  // Through handleSubmit, so `busy` (react-hook-form's isSubmitting) covers the checks and the save.
  const submit = (prepare?: Prepare) =>
    handleSubmit(async () => {
      const form = current();
      const prepared = prepare ? await prepare(form) : form;
      if (prepared === null) return;
      if (typeof prepared === 'string') {
        notify(prepared, { type: 'warning' });
        return;
      }
      setForm(() => prepared);
      if (await options.save(savePayload(prepared))) {
        setForm(clearSecrets);
        // The header, footer and login page read the public status: refresh it.
        reloadStatus().catch(() => undefined);
      }
    })();

  return {
    form: current(),
    set,
    setForm,
    busy: formState.isSubmitting,
    submit,
    control,
  };
}

interface SettingSectionProps {
  title: string;
  hint?: string;
  busy?: boolean;
  onSave?: () => void;
  /** Extra buttons next to save. */
  actions?: ReactNode;
  children: ReactNode;
}

/** A titled card; its save button saves this section's keys only. */
export function SettingSection({ title, hint, busy, onSave, actions, children }: SettingSectionProps) {
  const translate = useTranslate();
  return (
    <Card variant="outlined" component="section" aria-label={title} sx={{ mb: 2 }}>
      <CardContent>
        <Typography variant="h6" component="h2">
          {title}
        </Typography>
        {hint && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {hint}
          </Typography>
        )}
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: 2, mt: 2 }}>{children}</Box>
        <Box sx={{ display: 'flex', gap: 1, mt: 2, flexWrap: 'wrap' }}>
          {onSave && (
            <Button variant="contained" onClick={onSave} disabled={busy}>
              {translate('settings_system.common.save')}
            </Button>
          )}
          {actions}
        </Box>
      </CardContent>
    </Card>
  );
}

interface OptionFieldProps {
  section: Section;
  name: OptionKey;
  label: string;
  hint?: string;
  multiline?: boolean;
  type?: 'text' | 'number';
  placeholder?: string;
  /** Span both columns of the section's grid. */
  wide?: boolean;
}

/** A text field bound to one option; secrets are password fields that never show a stored value. */
export function OptionField({ section, name, label, hint, multiline, type = 'text', placeholder, wide }: OptionFieldProps) {
  const translate = useTranslate();
  const { field } = useController({ name, control: section.control });
  const secret = SECRET_KEYS.has(name);
  const helper = hint ?? (secret ? translate('settings_system.common.secret_hint') : undefined);
  return (
    <TextField
      label={translate(label)}
      value={field.value ?? ''}
      onChange={(e) => field.onChange(e.target.value)}
      onBlur={field.onBlur}
      inputRef={field.ref}
      type={secret ? 'password' : type}
      autoComplete={secret ? 'new-password' : 'off'}
      placeholder={placeholder}
      helperText={helper}
      multiline={multiline}
      minRows={multiline ? 4 : undefined}
      sx={wide || multiline ? { gridColumn: '1 / -1' } : undefined}
      fullWidth
    />
  );
}

interface OptionSwitchProps {
  section: Section;
  name: OptionKey;
  label: string;
  /** Replaces the plain toggle (e.g. to ask first). */
  onToggle?: (checked: boolean) => void;
}

/** A boolean option ('true' / 'false') as a switch. */
export function OptionSwitch({ section, name, label, onToggle }: OptionSwitchProps) {
  const translate = useTranslate();
  const { field } = useController({ name, control: section.control });
  return (
    <FormControlLabel
      control={
        <Switch
          checked={isTrue(field.value)}
          inputRef={field.ref}
          onChange={(e) => (onToggle ? onToggle(e.target.checked) : field.onChange(String(e.target.checked)))}
        />
      }
      label={translate(label)}
    />
  );
}

/** The options once loaded; a spinner before, and a retry when they could not be read. */
export function LoadedOptions({ options, children }: { options: OptionsState; children: ReactNode }) {
  const translate = useTranslate();
  if (options.loading) return <CircularProgress size={24} />;
  if (Object.keys(options.values).length === 0) {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void options.reload()}>
            {translate('settings_system.common.retry')}
          </Button>
        }
      >
        {translate('settings_system.common.load_failed')}
      </Alert>
    );
  }
  return <>{children}</>;
}
