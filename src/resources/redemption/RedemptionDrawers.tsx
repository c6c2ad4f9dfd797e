/**
 * `/redemption/create`: one POST makes the whole batch and answers the codes, which then show in a
 * dialog to copy. `/redemption/edit/{id}`: PUT /api/redemption/ with name, quota and group.
 */
import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField, Typography } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { EditBase, SaveButton, SimpleForm, Toolbar, useNotify, useRefresh, useTranslate, type RaRecord } from 'react-admin';
import { useMatch } from 'react-router-dom';
import { api } from '../../api/client';
import { useClipboard } from '../../customPages/shared/useClipboard';
import { DrawerFrame, useCloseDrawer } from '../schema/drawers';
import { CREATE_DEFAULTS, toCreateBody, toEditBody } from './redemptionForm';
import { RedemptionInputs } from './RedemptionInputs';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'app.error.request_failed';
}

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
  const match = useMatch('/redemption/create');
  const close = useCloseDrawer('redemption');
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const [codes, setCodes] = useState<string[]>([]);

  const submit = async (values: Record<string, unknown>) => {
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
      <DrawerFrame open={!!match} onClose={close} title={translate('resources.redemptions.create_title')}>
        {match && (
          <SimpleForm
            resource="redemption"
            onSubmit={submit}
            defaultValues={CREATE_DEFAULTS}
            toolbar={
              <Toolbar>
                <SaveButton alwaysEnable />
              </Toolbar>
            }
          >
            <RedemptionInputs mode="create" />
          </SimpleForm>
        )}
      </DrawerFrame>
      <CreatedCodesDialog codes={codes} onClose={() => setCodes([])} />
    </>
  );
}

export function RedemptionEditDrawer() {
  const match = useMatch('/redemption/edit/:id');
  const close = useCloseDrawer('redemption');
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const id = match?.params.id;
  const updated = () => {
    notify('resources.redemptions.notification.updated', { type: 'success' });
    close();
    refresh();
  };
  return (
    <DrawerFrame open={!!id} onClose={close} title={translate('resources.redemptions.edit_title')}>
      {id && (
        <EditBase
          resource="redemption"
          id={id}
          redirect={false}
          mutationMode="pessimistic"
          transform={(data: RaRecord) => toEditBody(data)}
          mutationOptions={{ onSuccess: updated, onError: (error) => notify(messageOf(error), { type: 'error' }) }}
        >
          <SimpleForm>
            <RedemptionInputs mode="edit" />
          </SimpleForm>
        </EditBase>
      )}
    </DrawerFrame>
  );
}
