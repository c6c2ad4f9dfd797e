/**
 * "Copy selected" of a list with row selection: asks for a selection when there is none, else
 * copies what `read` answers for the selected rows, one a line (the clipboard dialog shows it when
 * the clipboard refuses). Texts: `resources.<resource>.actions.copy_selected`, `.validation.select_one`.
 */
import { useState } from 'react';
import { Button } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useListContext, useNotify, useTranslate, type RaRecord } from 'react-admin';
import { useGateway, type GatewayDataProvider } from '../../api/customMethods';
import { useClipboard } from '../../customPages/shared/useClipboard';
import { messageOf } from './errors';

/** The lines to copy for the selected ids, in selection order; `data` is the list's current page. */
export type SelectedReader<R extends RaRecord = RaRecord> = (
  selectedIds: R['id'][],
  context: { data: R[]; dataProvider: GatewayDataProvider },
) => Promise<string[]>;

export function CopySelectedButton<R extends RaRecord>({ resource, read }: { resource: string; read: SelectedReader<R> }) {
  const { selectedIds, data } = useListContext<R>();
  const dataProvider = useGateway();
  const translate = useTranslate();
  const notify = useNotify();
  const { copy, dialog } = useClipboard();
  const [busy, setBusy] = useState(false);

  const copySelected = async () => {
    if (selectedIds.length === 0) {
      notify(`resources.${resource}.validation.select_one`, { type: 'error' });
      return;
    }
    setBusy(true);
    try {
      const lines = await read(selectedIds, { data: data ?? [], dataProvider });
      await copy(lines.join('\n'));
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button size="small" startIcon={<ContentCopyIcon />} disabled={busy} onClick={() => void copySelected()}>
        {translate(`resources.${resource}.actions.copy_selected`)}
      </Button>
      {dialog}
    </>
  );
}
