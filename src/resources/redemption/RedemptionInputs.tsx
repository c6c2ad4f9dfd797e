/** The inputs of the redemption code drawers: name, quota with presets, group, and the batch count on create. */
import { Box } from '@mui/material';
import { TextInput } from 'react-admin';
import { api } from '../../api/client';
import type { FieldSchema, Mode } from '../schema';
import { CountInput, CurrentValueSelectInput, QuotaInput } from '../shared/inputs';
import {
  COUNT_PRESETS,
  QUOTA_PRESETS,
  validateCount,
  validateCreateName,
  validateEditName,
  validateQuota,
} from './redemptionForm';

const label = (source: string) => `resources.redemptions.fields.${source}`;

/** Every group that exists (GET /api/group/), shared with the users screen's loader. */
const groupField: FieldSchema = {
  source: 'group',
  type: 'select',
  choices: { key: 'groups', load: async () => (await api.get<string[]>('/api/group/')).map((name) => ({ id: name, name })) },
};

export function RedemptionInputs({ mode }: { mode: Mode }) {
  return (
    <Box sx={{ width: '100%' }}>
      <TextInput
        source="name"
        label={label('name')}
        validate={mode === 'create' ? validateCreateName : validateEditName}
        helperText={mode === 'create' ? 'resources.redemptions.helper.name' : false}
        fullWidth
      />
      <QuotaInput
        source="quota"
        label={label('quota')}
        helper="resources.redemptions.helper.quota"
        presets={QUOTA_PRESETS}
        validate={validateQuota}
      />
      <CurrentValueSelectInput
        field={groupField}
        label={label('group')}
        emptyText="resources.redemptions.any_group"
        helperText="resources.redemptions.helper.group"
      />
      {mode === 'create' && <CountInput i18n="redemptions" presets={COUNT_PRESETS} validate={validateCount} />}
    </Box>
  );
}
