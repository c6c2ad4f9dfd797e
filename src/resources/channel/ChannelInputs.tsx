/**
 * The channel form's own inputs (the schema's `input` slots). What several of them show depends
 * on the channel type (and on batch creation), which they watch; watching only those keeps typing cheap.
 */
import { Stack } from '@mui/material';
import { BooleanInput, NumberInput, SelectInput, TextInput, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { InputSlotProps } from '../schema';
import { ChipsInput } from './ChipsField';
import { KEY_FORMAT_TYPES, OPENAI_TYPES, OTHER_FIELD, type ChannelFormValues } from './channelForm';
import { ModelsInput, useGroupNames } from './ModelsInput';
import { defaultBaseUrl, isChannelType, PRIORITY_MIN, TYPE_CHOICES } from './types';
import { baseUrlRequired } from '../../../server/shared';

const L = 'resources.channel.fields.';
const H = 'resources.channel.helper.';

/** Example JSON shown in each JSON text area. */
const JSON_PLACEHOLDERS: Record<string, string> = {
  model_mapping: '{"gpt-3.5-turbo": "gpt-35-turbo"}',
  status_code_mapping: '{"400": "500"}',
  param_override: '{"temperature": 0}',
  setting: '{"force_format": true}',
  settings: '{"azure_responses_version": "preview"}',
  header_override: '{"X-Tenant": "acme", "Authorization": "Token {api_key}"}',
};

function useType(): number {
  return Number(useWatch<ChannelFormValues, 'type'>({ name: 'type' }) ?? 1);
}

export function TypeInput() {
  return <SelectInput source="type" label={`${L}type`} choices={TYPE_CHOICES} translateChoice={false} emptyValue={1} />;
}

export function BatchInput() {
  return <BooleanInput source="batch" label={`${L}batch`} helperText={`${H}batch`} />;
}

/** The key: one a line when adding a batch; its format's hint for the types that need one. */
export function KeyInput({ mode }: InputSlotProps) {
  const translate = useTranslate();
  const type = useType();
  const batch = useWatch<ChannelFormValues, 'batch'>({ name: 'batch' });
  const keyFormat = KEY_FORMAT_TYPES.includes(type) ? translate(`resources.channel.key_format.${type}`) : '';
  const helper =
    mode === 'edit' ? translate(`${H}key_keep`) : batch ? translate(`${H}key_batch`) : keyFormat || translate(`${H}key_multi`);
  // Several lines make a multi-key channel, so the field always takes them.
  const roomy = !!batch || type === 41;
  return <TextInput source="key" label={`${L}key`} multiline minRows={roomy ? 3 : 1} helperText={helper} autoComplete="off" />;
}

export function BaseUrlInput() {
  const translate = useTranslate();
  const type = useType();
  const fallback = defaultBaseUrl(type);
  // AWS and Vertex derive their address from the region: the field is only an override there.
  const optional = !fallback && isChannelType(type) && !baseUrlRequired(type);
  const helper = fallback
    ? translate(`${H}base_url_default`, { url: fallback })
    : translate(optional ? `${H}base_url_optional` : `${H}base_url`);
  return <TextInput source="base_url" label={`${L}base_url`} placeholder={fallback} helperText={helper} />;
}

/** The type's extra setting (region, API version …), for the types that have one. */
export function OtherInput() {
  const translate = useTranslate();
  const other = OTHER_FIELD[useType()];
  if (!other) return null;
  return (
    <TextInput
      source="other"
      label={`resources.channel.other.${other.label}`}
      placeholder={other.placeholder}
      helperText={other.placeholder ? translate(`${H}other_default`, { value: other.placeholder }) : false}
    />
  );
}

export function OrganizationInput() {
  if (!OPENAI_TYPES.includes(useType())) return null;
  return <TextInput source="openai_organization" label={`${L}openai_organization`} helperText={`${H}openai_organization`} />;
}

export function ChannelModelsInput({ mode }: InputSlotProps) {
  return <ModelsInput mode={mode === 'edit' ? 'edit' : 'create'} type={useType()} />;
}

export function GroupsInput() {
  const translate = useTranslate();
  return (
    <ChipsInput source="group" label={translate(`${L}group`)} options={useGroupNames()} helperText={translate(`${H}group`)} />
  );
}

export function RoutingInputs() {
  return (
    <Stack direction="row" spacing={2}>
      <NumberInput source="priority" label={`${L}priority`} step={1} min={PRIORITY_MIN} helperText={`${H}priority`} />
      <NumberInput source="weight" label={`${L}weight`} step={1} min={0} helperText={`${H}weight`} />
    </Stack>
  );
}

/** Requests per minute and calls in flight, counted across every gateway process; 0 is no limit. */
export function LimitInputs() {
  return (
    <Stack direction="row" spacing={2}>
      <NumberInput source="rpm_limit" label={`${L}rpm_limit`} step={1} min={0} helperText={`${H}rpm_limit`} />
      <NumberInput source="max_concurrency" label={`${L}max_concurrency`} step={1} min={0} helperText={`${H}max_concurrency`} />
    </Stack>
  );
}

export function RemarkInput() {
  return <TextInput source="remark" label={`${L}remark`} multiline helperText={`${H}remark`} inputProps={{ maxLength: 255 }} />;
}

/** A text input with its helper (`resources.channel.helper.<source>`). */
export function HelpedInput({ source }: InputSlotProps) {
  return <TextInput source={source} label={`${L}${source}`} helperText={`${H}${source}`} />;
}

export function AutoBanInput() {
  return <BooleanInput source="auto_ban" label={`${L}auto_ban`} helperText={`${H}auto_ban`} />;
}

/** A JSON setting as text, with an example. */
export function JsonInput({ source }: InputSlotProps) {
  return (
    <TextInput
      source={source}
      label={`${L}${source}`}
      multiline
      minRows={2}
      placeholder={JSON_PLACEHOLDERS[source]}
      helperText={`${H}${source}`}
    />
  );
}
