import type { ResourceSchema } from '../schema';
import { ExpiryCell, KeyCell, RemainQuotaCell, TokenStatusCell } from './TokenCells';
import { TOKEN_ENABLED, type TokenRecord } from './types';

/**
 * The tokens list: its filters (name keyword, key) and columns. The create and edit forms are
 * TokenInputs, richer than the schema's generic inputs (presets, shortcuts, batch creation).
 */
export const tokenSchema: ResourceSchema<TokenRecord> = {
  name: 'token',
  i18n: 'tokens',
  // Anything but an enabled token is greyed (spec 4).
  rowSx: (record) => (record.status === TOKEN_ENABLED ? {} : { opacity: 0.5 }),
  fields: [
    { source: 'keyword', type: 'text', showInFilter: { alwaysOn: true } },
    { source: 'token', type: 'text', showInFilter: { alwaysOn: true } },
    { source: 'name', type: 'text', showInList: true },
    { source: 'status', type: 'virtual', showInList: true, render: (record) => <TokenStatusCell record={record} /> },
    { source: 'used_quota', type: 'quota', showInList: true },
    { source: 'remain_quota', type: 'virtual', showInList: true, render: (record) => <RemainQuotaCell record={record} /> },
    { source: 'created_time', type: 'date', showInList: true },
    { source: 'expired_time', type: 'virtual', showInList: true, render: (record) => <ExpiryCell record={record} /> },
    { source: 'key', type: 'virtual', showInList: true, render: (record) => <KeyCell record={record} /> },
  ],
};
