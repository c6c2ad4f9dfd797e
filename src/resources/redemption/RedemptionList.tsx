import type { SelectedReader } from '../shared/CopySelectedButton';
import { SelectableSchemaList } from '../shared/SelectableSchemaList';
import { RedemptionCreateDrawer, RedemptionEditDrawer } from './RedemptionDrawers';
import { RedemptionRowActions } from './RedemptionRowActions';
import { redemptionSchema } from './redemptionSchema';
import type { RedemptionRecord } from './types';

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

/**
 * /redemption: the admins' redemption codes, with row selection and an always-visible "copy
 * selected" (the codes, one a line) and its own drawers.
 */
export default function RedemptionList() {
  return (
    <SelectableSchemaList schema={redemptionSchema} readSelected={selectedCodes} rowActions={RedemptionRowActions}>
      <RedemptionCreateDrawer />
      <RedemptionEditDrawer />
    </SelectableSchemaList>
  );
}
