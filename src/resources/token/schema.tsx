import { TokenSpendCapButton } from '../subscription_plan/SpendCapButton';
import { Alert } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ResourceSchema } from '../schema';
import { CopySelectedButton, type SelectedReader } from '../shared/CopySelectedButton';
import { withPrefix } from './keys';
import { ExpiryCell, KeyCell, RemainQuotaCell, TokenStatusCell } from './TokenCells';
import { useTokenCreate } from './tokenCreate';
import { CREATE_DEFAULTS, toTokenBody } from './tokenForm';
import {
  AllowIpsInput,
  BatchCountInput,
  ExpiryInput,
  GroupInput,
  ModelLimitInputs,
  NameInput,
  QuotaInputs,
  TpmInput,
  RequestLimitInputs,
  LogBodiesInput,
} from './TokenInputs';
import { TokenRowActions } from './TokenRowActions';
import { TOKEN_ENABLED, type TokenRecord } from './types';

/** The full keys of the selected tokens (the list only has masked ones), one a line. */
const selectedKeys: SelectedReader<TokenRecord> = async (selectedIds, { dataProvider }) =>
  (await dataProvider.revealTokenKeys(selectedIds.map(Number))).map(withPrefix);

function Warning() {
  const translate = useTranslate();
  return (
    <Alert severity="warning" sx={{ mt: 2 }}>
      {translate('resources.token.warning')}
    </Alert>
  );
}

function CopySelected() {
  return <CopySelectedButton resource="token" read={selectedKeys} />;
}

/**
 * /token: the person's API tokens under a warning, with row selection and an always-visible "copy
 * selected"; the drawers' inputs have presets, shortcuts and batch creation.
 */
const tokenSchema: ResourceSchema<TokenRecord> = {
  name: 'token',
  canCreate: true,
  canEdit: true,
  rowActions: TokenRowActions,
  // Anything but an enabled token is greyed.
  rowSx: (record) => (record.status === TOKEN_ENABLED ? {} : { opacity: 0.5 }),
  fields: [
    { source: 'keyword', type: 'text', showInFilter: { alwaysOn: true } },
    { source: 'token', type: 'text', showInFilter: { alwaysOn: true } },
    { source: 'name', type: 'text', showInList: true, showInCreate: true, showInEdit: true, input: NameInput },
    { source: 'status', type: 'virtual', showInList: true, render: (record) => <TokenStatusCell record={record} /> },
    { source: 'used_quota', type: 'quota', showInList: true, column: { nowrap: true } },
    {
      source: 'remain_quota',
      type: 'virtual',
      showInList: true,
      showInCreate: true,
      showInEdit: true,
      render: (record) => <RemainQuotaCell record={record} />,
      input: QuotaInputs,
      editAddon: TokenSpendCapButton,
      column: { nowrap: true },
    },
    { source: 'created_time', type: 'date', showInList: true, column: { nowrap: true } },
    {
      source: 'expired_time',
      type: 'virtual',
      showInList: true,
      showInCreate: true,
      showInEdit: true,
      render: (record) => <ExpiryCell record={record} />,
      input: ExpiryInput,
      column: { nowrap: true },
    },
    { source: 'key', type: 'virtual', showInList: true, render: (record) => <KeyCell record={record} /> },
    { source: 'model_limits', type: 'virtual', showInCreate: true, showInEdit: true, input: ModelLimitInputs },
    { source: 'allow_ips', type: 'virtual', showInCreate: true, showInEdit: true, input: AllowIpsInput },
    { source: 'group', type: 'virtual', showInCreate: true, showInEdit: true, input: GroupInput },
    { source: 'tpm_limit', type: 'virtual', showInCreate: true, showInEdit: true, input: TpmInput },
    { source: 'max_concurrency', type: 'virtual', showInCreate: true, showInEdit: true, input: RequestLimitInputs },
    { source: 'log_bodies', type: 'virtual', showInCreate: true, showInEdit: true, input: LogBodiesInput },
    { source: 'count', type: 'virtual', showInCreate: true, input: BatchCountInput },
  ],
  transform: { edit: (data) => ({ id: data.id, ...toTokenBody(data) }) },
  list: { header: Warning, actions: CopySelected, selection: {} },
  form: { defaults: () => ({ ...CREATE_DEFAULTS }), useCreate: useTokenCreate },
};

export default tokenSchema;
