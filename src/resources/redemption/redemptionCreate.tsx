/** Creating redemption codes: a batch in one call, then the codes made in a dialog to copy. */
import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField, Typography } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useNotify, useTranslate } from 'react-admin';
import { useGateway } from '../../api/customMethods';
import { useClipboard } from '../../customPages/shared/useClipboard';
import { messageOf } from '../shared/errors';
import type { CustomCreate } from '../schema';
import { toCreateBody } from './redemptionForm';

/** The codes just made, one a line, with a button to copy them all. */
function CreatedCodesDialog({ codes, onClose }: { codes: string[]; onClose: () => void }) {
  const translate = useTranslate();
  const { copy, dialog } = useClipboard();
  const text = codes.join('\n');
  return (
    <>
      <Dialog open={codes.length > 0} onClose={onClose} fullWidth maxWidth="sm">
        <DialogTitle>{translate('resources.redemption.created.title', { smart_count: codes.length })}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {translate('resources.redemption.created.hint')}
          </Typography>
          <TextField
            value={text}
            fullWidth
            multiline
            maxRows={12}
            slotProps={{
              htmlInput: { readOnly: true, 'aria-label': translate('resources.redemption.created.codes') },
            }}
            sx={{ fontFamily: 'monospace' }}
            onFocus={(e) => e.target.select()}
          />
        </DialogContent>
        <DialogActions>
          <Button startIcon={<ContentCopyIcon />} onClick={() => void copy(text)}>
            {translate('resources.redemption.actions.copy_all')}
          </Button>
          <Button onClick={onClose}>{translate('pages.common.close')}</Button>
        </DialogActions>
      </Dialog>
      {dialog}
    </>
  );
}

/** One POST makes the whole batch and answers the codes, shown afterwards in a dialog to copy. */
export function useRedemptionCreate(): CustomCreate {
  const notify = useNotify();
  const [codes, setCodes] = useState<string[]>([]);
  const gateway = useGateway();
  return {
    submit: async (values, { close, refresh }) => {
      try {
        const created = await gateway.createRedemptions(toCreateBody(values));
        notify('resources.redemption.notification.created', { type: 'success', messageArgs: { smart_count: created.length } });
        close();
        refresh();
        setCodes(created);
      } catch (error) {
        notify(messageOf(error), { type: 'error' });
      }
    },
    after: <CreatedCodesDialog codes={codes} onClose={() => setCodes([])} />,
  };
}
