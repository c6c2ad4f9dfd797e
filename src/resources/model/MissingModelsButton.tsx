/**
 * "Models without metadata": the served models no row names yet (GET /api/models/missing), each
 * added as an exact row with one click, or all those the official catalogue knows filled in from
 * it (POST /api/models/sync_upstream), like new-api's model management offers.
 */
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemText,
  Typography,
} from '@mui/material';
import PlaylistAddIcon from '@mui/icons-material/PlaylistAdd';
import { useCreate, useNotify, useRefresh, useTranslate } from 'react-admin';
import { useGateway } from '../../api/customMethods';
import { messageOf } from '../shared/errors';

const KEY = ['model', 'missing'];

function MissingList() {
  const translate = useTranslate();
  const gateway = useGateway();
  const notify = useNotify();
  const refresh = useRefresh();
  const queries = useQueryClient();
  const [create, { isPending }] = useCreate();
  const { data, isPending: loading, error } = useQuery({ queryKey: KEY, queryFn: () => gateway.missingModels() });

  if (loading) return <CircularProgress size={24} aria-label={translate('resources.model.missing.loading')} />;
  if (error) return <Typography color="error">{messageOf(error)}</Typography>;
  if (!data || data.length === 0) return <Typography>{translate('resources.model.missing.none')}</Typography>;

  const add = (name: string) =>
    void create(
      'model',
      { data: { model_name: name } },
      {
        onSuccess: () => {
          notify('resources.model.missing.added', { type: 'success', messageArgs: { name } });
          void queries.invalidateQueries({ queryKey: KEY });
          refresh();
        },
        onError: (err) => notify(messageOf(err), { type: 'error' }),
      },
    );

  return (
    <List dense>
      {data.map((name) => (
        <ListItem
          key={name}
          secondaryAction={
            <Button
              size="small"
              disabled={isPending}
              onClick={() => add(name)}
              aria-label={translate('resources.model.missing.add_one', { name })}
            >
              {translate('resources.model.missing.add')}
            </Button>
          }
        >
          <ListItemText primary={name} slotProps={{ primary: { sx: { fontFamily: 'monospace' } } }} />
        </ListItem>
      ))}
    </List>
  );
}

/** Fills in every missing model the official catalogue knows, and says how many it made. */
function SyncButton() {
  const translate = useTranslate();
  const gateway = useGateway();
  const notify = useNotify();
  const refresh = useRefresh();
  const queries = useQueryClient();
  const sync = useMutation({
    mutationFn: () => gateway.syncOfficialModels(),
    onSuccess: (result) => {
      notify('resources.model.missing.synced', {
        type: 'success',
        messageArgs: { models: result.created_models, vendors: result.created_vendors },
      });
      void queries.invalidateQueries({ queryKey: KEY });
      refresh();
    },
    onError: (err) => notify(messageOf(err), { type: 'error' }),
  });
  return (
    <Button disabled={sync.isPending} onClick={() => sync.mutate()}>
      {translate('resources.model.missing.sync')}
    </Button>
  );
}

export function MissingModelsButton() {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" startIcon={<PlaylistAddIcon />} onClick={() => setOpen(true)}>
        {translate('resources.model.missing.button')}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="sm" aria-labelledby="missing-models-title">
        <DialogTitle id="missing-models-title">{translate('resources.model.missing.title')}</DialogTitle>
        <DialogContent>{open && <MissingList />}</DialogContent>
        <DialogActions>
          {open && <SyncButton />}
          <Button onClick={() => setOpen(false)}>{translate('ra.action.close')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
