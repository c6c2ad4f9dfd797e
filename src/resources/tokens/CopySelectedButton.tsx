import { useState } from 'react';
import { Button } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useListContext, useNotify, useTranslate } from 'react-admin';
import { useClipboard } from '../../customPages/shared/useClipboard';
import { revealKeys } from './keys';

/** Copies the full keys of the selected tokens, one a line (one reveal call per token). */
export function CopySelectedButton() {
  const { selectedIds } = useListContext();
  const translate = useTranslate();
  const notify = useNotify();
  const { copy, dialog } = useClipboard();
  const [busy, setBusy] = useState(false);

  const copySelected = async () => {
    if (selectedIds.length === 0) {
      notify('resources.tokens.validation.select_one', { type: 'error' });
      return;
    }
    setBusy(true);
    try {
      const keys = await revealKeys(selectedIds.map(Number));
      await copy(keys.join('\n'));
    } catch (error) {
      notify(error instanceof Error ? error.message : 'app.error.request_failed', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button size="small" startIcon={<ContentCopyIcon />} disabled={busy} onClick={() => void copySelected()}>
        {translate('resources.tokens.actions.copy_selected')}
      </Button>
      {dialog}
    </>
  );
}
