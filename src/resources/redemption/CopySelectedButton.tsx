import { useState } from 'react';
import { Button } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useDataProvider, useListContext, useNotify, useTranslate } from 'react-admin';
import { useClipboard } from '../../customPages/shared/useClipboard';
import type { RedemptionRecord } from './types';

/**
 * Copies the selected codes, one a line. Codes of this page come from the list; ones selected on
 * another page are read again.
 */
export function CopySelectedButton() {
  const { selectedIds, data } = useListContext<RedemptionRecord>();
  const dataProvider = useDataProvider();
  const translate = useTranslate();
  const notify = useNotify();
  const { copy, dialog } = useClipboard();
  const [busy, setBusy] = useState(false);

  const copySelected = async () => {
    if (selectedIds.length === 0) {
      notify('resources.redemptions.validation.select_one', { type: 'error' });
      return;
    }
    setBusy(true);
    try {
      const known = new Map((data ?? []).map((record) => [String(record.id), record.key]));
      const missing = selectedIds.filter((id) => !known.has(String(id)));
      if (missing.length > 0) {
        const { data: fetched } = await dataProvider.getMany<RedemptionRecord>('redemption', { ids: missing });
        for (const record of fetched) known.set(String(record.id), record.key);
      }
      await copy(
        selectedIds
          .map((id) => known.get(String(id)) ?? '')
          .filter(Boolean)
          .join('\n'),
      );
    } catch (error) {
      notify(error instanceof Error ? error.message : 'app.error.request_failed', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button size="small" startIcon={<ContentCopyIcon />} disabled={busy} onClick={() => void copySelected()}>
        {translate('resources.redemptions.actions.copy_selected')}
      </Button>
      {dialog}
    </>
  );
}
