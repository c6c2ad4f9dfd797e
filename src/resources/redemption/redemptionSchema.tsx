import type { ResourceSchema } from '../schema';
import { CodeCell, GroupCell, RedemptionStatusCell, UsedByCell } from './RedemptionCells';
import { REDEMPTION_UNUSED, type RedemptionRecord } from './types';

/**
 * The redemption codes list: its keyword filter (id, code or part of the name) and columns. The
 * drawers use RedemptionInputs (presets, batch count, the codes dialog after creating).
 */
export const redemptionSchema: ResourceSchema<RedemptionRecord> = {
  name: 'redemption',
  i18n: 'redemptions',
  // Used and disabled codes are greyed.
  rowSx: (record) => (record.status === REDEMPTION_UNUSED ? {} : { opacity: 0.6 }),
  fields: [
    { source: 'keyword', type: 'text', showInFilter: { alwaysOn: true } },
    { source: 'id', type: 'id', showInList: true },
    { source: 'name', type: 'text', showInList: true },
    { source: 'key', type: 'virtual', showInList: true, render: (record) => <CodeCell record={record} /> },
    { source: 'status', type: 'virtual', showInList: true, render: (record) => <RedemptionStatusCell record={record} /> },
    { source: 'quota', type: 'quota', showInList: true },
    { source: 'group', type: 'virtual', showInList: true, render: (record) => <GroupCell record={record} /> },
    { source: 'created_time', type: 'date', showInList: true },
    { source: 'redeemed_time', type: 'date', showInList: true },
    { source: 'used_user_id', type: 'virtual', showInList: true, render: (record) => <UsedByCell record={record} /> },
  ],
};
