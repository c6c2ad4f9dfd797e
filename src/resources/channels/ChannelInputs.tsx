import { Stack, Typography } from '@mui/material';
import { BooleanInput, NumberInput, SelectInput, TextInput, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { ChipsInput } from './ChipsField';
import { KEY_FORMAT_TYPES, OPENAI_TYPES, OTHER_FIELD, type ChannelFormValues, type FormMode } from './channelForm';
import { ModelsInput, useGroupNames } from './ModelsInput';
import { defaultBaseUrl, PRIORITY_MIN, TYPE_CHOICES } from './types';

const L = 'resources.channels.fields.';
const H = 'resources.channels.helper.';

/** Example JSON shown in each JSON text area. */
const JSON_PLACEHOLDERS = {
  model_mapping: '{"gpt-3.5-turbo": "gpt-35-turbo"}',
  status_code_mapping: '{"400": "500"}',
  param_override: '{"temperature": 0}',
  setting: '{"force_format": true}',
} as const;

function Section({ title }: { title: string }) {
  const translate = useTranslate();
  return (
    <Typography variant="subtitle2" color="text.secondary" sx={{ mt: 2, mb: 0.5 }}>
      {translate(title)}
    </Typography>
  );
}

/** Every input of the channel form; which ones show and what they say depends on the type. */
export function ChannelInputs({ mode }: { mode: FormMode }) {
  const translate = useTranslate();
  // Only these two change what the form shows; watching them alone keeps typing cheap.
  const [watchedType, batch] = useWatch<ChannelFormValues, ['type', 'batch']>({ name: ['type', 'batch'] });
  const groups = useGroupNames();
  const type = Number(watchedType ?? 1);
  const other = OTHER_FIELD[type];
  const fallbackUrl = defaultBaseUrl(type);
  const keyFormat = (KEY_FORMAT_TYPES as readonly number[]).includes(type)
    ? translate(`resources.channels.key_format.${type}`)
    : '';
  const keyHelper =
    mode === 'edit' ? translate(`${H}key_keep`) : batch ? translate(`${H}key_batch`) : keyFormat || translate(`${H}key`);

  return (
    <Stack sx={{ width: '100%' }}>
      <Section title="resources.channels.sections.basic" />
      <SelectInput source="type" label={`${L}type`} choices={TYPE_CHOICES} translateChoice={false} emptyValue={1} />
      <TextInput source="name" label={`${L}name`} />
      {mode === 'create' && <BooleanInput source="batch" label={`${L}batch`} helperText={`${H}batch`} />}
      <TextInput
        source="key"
        label={`${L}key`}
        multiline={batch || type === 41}
        minRows={batch || type === 41 ? 3 : undefined}
        helperText={keyHelper}
        autoComplete="off"
      />
      <TextInput
        source="base_url"
        label={`${L}base_url`}
        placeholder={fallbackUrl}
        helperText={fallbackUrl ? translate(`${H}base_url_default`, { url: fallbackUrl }) : translate(`${H}base_url`)}
      />
      {other && (
        <TextInput
          source="other"
          label={`resources.channels.other.${other.label}`}
          placeholder={other.placeholder}
          helperText={other.placeholder ? translate(`${H}other_default`, { value: other.placeholder }) : false}
        />
      )}
      {OPENAI_TYPES.includes(type) && (
        <TextInput source="openai_organization" label={`${L}openai_organization`} helperText={`${H}openai_organization`} />
      )}

      <Section title="resources.channels.sections.models" />
      <ModelsInput mode={mode} type={type} />
      <ChipsInput source="group" label={translate(`${L}group`)} options={groups} helperText={translate(`${H}group`)} />
      <TextInput source="test_model" label={`${L}test_model`} helperText={`${H}test_model`} />

      <Section title="resources.channels.sections.routing" />
      <Stack direction="row" spacing={2}>
        <NumberInput source="priority" label={`${L}priority`} step={1} min={PRIORITY_MIN} helperText={`${H}priority`} />
        <NumberInput source="weight" label={`${L}weight`} step={1} min={0} helperText={`${H}weight`} />
      </Stack>
      <BooleanInput source="auto_ban" label={`${L}auto_ban`} helperText={`${H}auto_ban`} />
      <TextInput source="tag" label={`${L}tag`} helperText={`${H}tag`} />

      <Section title="resources.channels.sections.advanced" />
      {(Object.keys(JSON_PLACEHOLDERS) as (keyof typeof JSON_PLACEHOLDERS)[]).map((field) => (
        <TextInput
          key={field}
          source={field}
          label={`${L}${field}`}
          multiline
          minRows={2}
          placeholder={JSON_PLACEHOLDERS[field]}
          helperText={`${H}${field}`}
        />
      ))}
    </Stack>
  );
}
