/**
 * `/redemption/create`: one POST makes the whole batch and answers the codes, which then show in a
 * dialog to copy. `/redemption/edit/{id}`: PUT /api/redemption/ with name, quota and group.
 */
import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField, Typography } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import { api } from '../../api/client';
import { useClipboard } from '../../customPages/shared/useClipboard';
import { messageOf } from '../shared/errors';
import { CreateFormDrawer, EditFormDrawer } from '../shared/FormDrawers';
import { CREATE_DEFAULTS, toCreateBody, toEditBody } from './redemptionForm';
import { RedemptionInputs } from './RedemptionInputs';

/** The codes just made, one a line, with a button to copy them all. */
function CreatedCodesDialog({ codes, onClose }: { codes: string[]; onClose: () => void }) {
  const translate = useTranslate();
  const { copy, dialog } = useClipboard();
  const text = codes.join('\n');
  return (
    <>
      <Dialog open={codes.length > 0} onClose={onClose} fullWidth maxWidth="sm">
        <DialogTitle>{translate('resources.redemptions.created.title', { smart_count: codes.length })}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {translate('resources.redemptions.created.hint')}
          </Typography>
          <TextField
            value={text}
            fullWidth
            multiline
            maxRows={12}
            slotProps={{
              htmlInput: { readOnly: true, 'aria-label': translate('resources.redemptions.created.codes') },
            }}
            sx={{ fontFamily: 'monospace' }}
            onFocus={(e) => e.target.select()}
          />
        </DialogContent>
        <DialogActions>
          <Button startIcon={<ContentCopyIcon />} onClick={() => void copy(text)}>
            {translate('resources.redemptions.actions.copy_all')}
          </Button>
          <Button onClick={onClose}>{translate('pages.common.close')}</Button>
        </DialogActions>
      </Dialog>
      {dialog}
    </>
  );
}

export function RedemptionCreateDrawer() {
  const notify = useNotify();
  const refresh = useRefresh();
  const [codes, setCodes] = useState<string[]>([]);

  const submit = async (values: Record<string, unknown>, close: () => void) => {
    try {
      const created = await api.post<string[]>('/api/redemption/', toCreateBody(values));
      notify('resources.redemptions.notification.created', { type: 'success', messageArgs: { smart_count: created.length } });
      close();
      refresh();
      setCodes(created);
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    }
  };

  return (
    <>
      <CreateFormDrawer resource="redemption" i18n="redemptions" defaultValues={CREATE_DEFAULTS} onSubmit={submit}>
        <RedemptionInputs mode="create" />
      </CreateFormDrawer>
      <CreatedCodesDialog codes={codes} onClose={() => setCodes([])} />
    </>
  );
}

export function RedemptionEditDrawer() {
  const notify = useNotify();
  return (
    <EditFormDrawer
      resource="redemption"
      i18n="redemptions"
      transform={toEditBody}
      onError={(error) => notify(messageOf(error), { type: 'error' })}
    >
      <RedemptionInputs mode="edit" />
    </EditFormDrawer>
  );
}
