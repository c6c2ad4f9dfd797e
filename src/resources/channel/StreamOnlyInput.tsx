/**
 * "Stream-only upstream": the `stream_only` flag of the channel's `setting` JSON, as a switch, so
 * an admin need not know the key. Such a channel is tested with a streamed call (a plain one would
 * fail every scheduled test and never bring it back). The switch edits the setting text in place
 * and is off-limits while that text is not a JSON object.
 */
import { FormControlLabel, FormHelperText, Switch } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import type { ChannelFormValues } from './channelForm';

/** The setting as an object; null when the text is not a JSON object. */
function parseSetting(text: string | undefined): Record<string, unknown> | null {
  if (!text?.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function StreamOnlyInput() {
  const translate = useTranslate();
  const { setValue } = useFormContext<ChannelFormValues>();
  const text = useWatch<ChannelFormValues, 'setting'>({ name: 'setting' });
  const setting = parseSetting(text);
  const toggle = (on: boolean) => {
    if (!setting) return;
    const { stream_only: _old, ...rest } = setting;
    const next = on ? { ...rest, stream_only: true } : rest;
    setValue('setting', Object.keys(next).length > 0 ? JSON.stringify(next) : '', { shouldDirty: true });
  };
  return (
    <div>
      <FormControlLabel
        control={
          <Switch
            checked={setting?.stream_only === true}
            disabled={!setting}
            onChange={(event) => toggle(event.target.checked)}
          />
        }
        label={translate('resources.channel.fields.stream_only')}
      />
      <FormHelperText sx={{ mt: 0, mb: 1 }}>
        {translate(setting ? 'resources.channel.helper.stream_only' : 'resources.channel.helper.stream_only_bad_setting')}
      </FormHelperText>
    </div>
  );
}
