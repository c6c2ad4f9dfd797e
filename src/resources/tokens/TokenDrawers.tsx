import type { ReactNode } from 'react';
import { Box, Drawer, IconButton, Stack, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import {
  EditBase,
  SaveButton,
  SimpleForm,
  Toolbar,
  useDataProvider,
  useNotify,
  useRefresh,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { useLocation, useMatch, useNavigate } from 'react-router-dom';
import { batchNames, CREATE_DEFAULTS, toTokenBody } from './tokenForm';
import { TokenInputs } from './TokenInputs';

/** Back to the list, keeping its filters and page. */
function useCloseDrawer(): () => void {
  const navigate = useNavigate();
  const location = useLocation();
  return () => navigate({ pathname: '/token', search: location.search });
}

function TokenDrawer({
  open,
  title,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Drawer anchor="right" open={open} onClose={onClose}>
      <Box sx={{ width: { xs: '100vw', sm: 500 } }} role="dialog" aria-label={title}>
        <Stack direction="row" alignItems="center" sx={{ px: 2, pt: 2 }}>
          <Typography variant="h6" sx={{ flex: 1 }}>
            {title}
          </Typography>
          <IconButton onClick={onClose} aria-label="close">
            <CloseIcon />
          </IconButton>
        </Stack>
        {children}
      </Box>
    </Drawer>
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'app.error.request_failed';
}

/**
 * `/token/create`: one token, or a batch of `count` (one POST each, in order). A failure stops the
 * batch and says why; the tokens made before it stay and show in the refreshed list.
 */
export function TokenCreateDrawer() {
  const match = useMatch('/token/create');
  const close = useCloseDrawer();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();

  const submit = async (values: Record<string, unknown>) => {
    const body = toTokenBody(values);
    let created = 0;
    try {
      for (const name of batchNames(body.name, Number(values.count))) {
        await dataProvider.create('token', { data: { ...body, name } });
        created += 1;
      }
      notify('resources.tokens.notification.created', { type: 'success', messageArgs: { smart_count: created } });
      close();
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    }
    if (created > 0) refresh();
  };

  return (
    <TokenDrawer open={!!match} onClose={close} title={translate('resources.tokens.create_title')}>
      {match && (
        <SimpleForm
          resource="token"
          onSubmit={submit}
          defaultValues={CREATE_DEFAULTS}
          toolbar={
            <Toolbar>
              <SaveButton alwaysEnable />
            </Toolbar>
          }
        >
          <TokenInputs mode="create" />
        </SimpleForm>
      )}
    </TokenDrawer>
  );
}

/** `/token/edit/{id}`: PUT /api/token/ with the id and every editable field. */
export function TokenEditDrawer() {
  const match = useMatch('/token/edit/:id');
  const close = useCloseDrawer();
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const id = match?.params.id;
  const updated = () => {
    notify('resources.tokens.notification.updated', { type: 'success' });
    close();
    refresh();
  };
  return (
    <TokenDrawer open={!!id} onClose={close} title={translate('resources.tokens.edit_title')}>
      {id && (
        <EditBase
          resource="token"
          id={id}
          redirect={false}
          mutationMode="pessimistic"
          transform={(data: RaRecord) => ({ id: data.id, ...toTokenBody(data) })}
          mutationOptions={{ onSuccess: updated }}
        >
          <SimpleForm>
            <TokenInputs mode="edit" />
          </SimpleForm>
        </EditBase>
      )}
    </TokenDrawer>
  );
}
