import type { ResourceSchema } from '../schema';
import { CopySelectedButton, type SelectedReader } from '../shared/CopySelectedButton';
import { messageOf } from '../shared/errors';
import { ClearInvalidButton } from './ClearInvalidButton';
import { CodeCell, ExpiryCell, GroupCell, RedemptionStatusCell, UsedByCell } from './RedemptionCells';
import { useRedemptionCreate } from './redemptionCreate';
import { CREATE_DEFAULTS, isExpired, toEditBody } from './redemptionForm';
import { BatchCountInput, ExpiryInput, GroupInput, NameInput, QuotaPresetInput } from './RedemptionInputs';
import { RedemptionRowActions } from './RedemptionRowActions';
import { REDEMPTION_UNUSED, type RedemptionRecord } from './types';

/** The selected codes: those of this page come from the list, ones selected on another page are read again. */
const selectedCodes: SelectedReader<RedemptionRecord> = async (selectedIds, { data, dataProvider }) => {
  const known = new Map(data.map((record) => [String(record.id), record.key]));
  const missing = selectedIds.filter((id) => !known.has(String(id)));
  if (missing.length > 0) {
    const { data: fetched } = await dataProvider.getMany<RedemptionRecord>('redemption', { ids: missing });
    for (const record of fetched) known.set(String(record.id), record.key);
  }
  return selectedIds.map((id) => known.get(String(id)) ?? '').filter(Boolean);
};

function Actions() {
  return (
    <>
      <CopySelectedButton resource="redemption" read={selectedCodes} />
      <ClearInvalidButton />
    </>
  );
}

/**
 * /redemption: the admins' redemption codes, with a keyword filter (id, code or part of the
 * name), row selection, an always-visible "copy selected" (the codes, one a line) and "clear
 * invalid codes"; creating makes a batch (with an optional expiry) and shows the codes made.
 */
const redemptionSchema: ResourceSchema<RedemptionRecord> = {
  name: 'redemption',
  canCreate: true,
  canEdit: true,
  rowActions: RedemptionRowActions,
  // Used, disabled and expired codes are greyed.
  rowSx: (record) => (record.status === REDEMPTION_UNUSED && !isExpired(record.expired_time) ? {} : { opacity: 0.6 }),
  fields: [
    { source: 'keyword', type: 'text', showInFilter: { alwaysOn: true } },
    { source: 'id', type: 'id', showInList: true },
    { source: 'name', type: 'text', showInList: true, showInCreate: true, showInEdit: true, input: NameInput },
    { source: 'key', type: 'virtual', showInList: true, render: (record) => <CodeCell record={record} /> },
    { source: 'status', type: 'virtual', showInList: true, render: (record) => <RedemptionStatusCell record={record} /> },
    { source: 'quota', type: 'quota', showInList: true, showInCreate: true, showInEdit: true, input: QuotaPresetInput },
    {
      source: 'group',
      type: 'virtual',
      showInList: true,
      showInCreate: true,
      showInEdit: true,
      render: (record) => <GroupCell record={record} />,
      input: GroupInput,
    },
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
    { source: 'count', type: 'virtual', showInCreate: true, input: BatchCountInput },
    { source: 'created_time', type: 'date', showInList: true, column: { nowrap: true } },
    { source: 'redeemed_time', type: 'date', showInList: true, column: { nowrap: true } },
    { source: 'used_user_id', type: 'virtual', showInList: true, render: (record) => <UsedByCell record={record} /> },
  ],
  transform: { edit: toEditBody },
  list: { actions: Actions, selection: {} },
  form: {
    defaults: () => ({ ...CREATE_DEFAULTS }),
    useCreate: useRedemptionCreate,
    onError: (error, notify) => notify(messageOf(error)),
  },
};

export default redemptionSchema;
