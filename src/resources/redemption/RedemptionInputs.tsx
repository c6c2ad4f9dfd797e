/** The redemption code form's own inputs (the schema's `input` slots): name, quota with presets, group, batch count. */
import { TextInput } from 'react-admin';
import { api } from '../../api/client';
import type { FieldSchema, InputSlotProps } from '../schema';
import { CountInput, CurrentValueSelectInput, QuotaInput } from '../shared/inputs';
import {
  COUNT_PRESETS,
  QUOTA_PRESETS,
  validateCount,
  validateCreateName,
  validateEditName,
  validateQuota,
} from './redemptionForm';

const label = (source: string) => `resources.redemption.fields.${source}`;

/** Every group that exists (GET /api/group/), shared with the users screen's loader. */
const groupField: FieldSchema = {
  source: 'group',
  type: 'select',
  choices: { key: 'groups', load: async () => (await api.get<string[]>('/api/group/')).map((name) => ({ id: name, name })) },
};

/** On create an empty name becomes the formatted quota; on edit a name is needed. */
export function NameInput({ mode }: InputSlotProps) {
  return (
    <TextInput
      source="name"
      label={label('name')}
      validate={mode === 'create' ? validateCreateName : validateEditName}
      helperText={mode === 'create' ? 'resources.redemption.helper.name' : false}
      fullWidth
    />
  );
}

export function QuotaPresetInput() {
  return (
    <QuotaInput
      source="quota"
      label={label('quota')}
      helper="resources.redemption.helper.quota"
      presets={QUOTA_PRESETS}
      validate={validateQuota}
    />
  );
}

export function GroupInput() {
  return (
    <CurrentValueSelectInput
      field={groupField}
      label={label('group')}
      emptyText="resources.redemption.any_group"
      helperText="resources.redemption.helper.group"
    />
  );
}

export function BatchCountInput() {
  return <CountInput resource="redemption" presets={COUNT_PRESETS} validate={validateCount} />;
}
