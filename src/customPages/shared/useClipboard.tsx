/**
 * Copy to the clipboard; when the browser refuses (no permission, insecure context) a dialog shows
 * the text so the person can copy it by hand.
 */
import { useCallback, useState, type ReactNode } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';

export function useClipboard(): { copy: (text: string, successMessage?: string) => Promise<boolean>; dialog: ReactNode } {
  const notify = useNotify();
  const translate = useTranslate();
  const [manual, setManual] = useState<string | null>(null);

  const copy = useCallback(
    async (text: string, successMessage = 'pages.common.copied') => {
      try {
        if (!navigator.clipboard) throw new Error('clipboard unavailable');
        await navigator.clipboard.writeText(text);
        notify(successMessage, { type: 'success' });
        return true;
      } catch {
        setManual(text);
        return false;
      }
    },
    [notify],
  );

  const dialog = (
    <Dialog open={manual !== null} onClose={() => setManual(null)} fullWidth maxWidth="sm">
      <DialogTitle>{translate('pages.common.copy_failed')}</DialogTitle>
      <DialogContent>
        <TextField
          value={manual ?? ''}
          fullWidth
          multiline
          slotProps={{ htmlInput: { readOnly: true, 'aria-label': translate('pages.common.copy_failed') } }}
          onFocus={(e) => e.target.select()}
          sx={{ mt: 1 }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={() => setManual(null)}>{translate('pages.common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
  return { copy, dialog };
}
