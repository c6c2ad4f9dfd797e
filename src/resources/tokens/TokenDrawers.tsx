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
import { DrawerFrame, useCloseDrawer } from '../schema/drawers';
import { useMatch } from 'react-router-dom';
import { batchNames, CREATE_DEFAULTS, toTokenBody } from './tokenForm';
import { TokenInputs } from './TokenInputs';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'app.error.request_failed';
}

/**
 * `/token/create`: one token, or a batch of `count` (one POST each, in order). A failure stops the
 * batch and says why; the tokens made before it stay and show in the refreshed list.
 */
export function TokenCreateDrawer() {
  const match = useMatch('/token/create');
  const close = useCloseDrawer('token');
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
    <DrawerFrame open={!!match} onClose={close} title={translate('resources.tokens.create_title')}>
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
    </DrawerFrame>
  );
}

/** `/token/edit/{id}`: PUT /api/token/ with the id and every editable field. */
export function TokenEditDrawer() {
  const match = useMatch('/token/edit/:id');
  const close = useCloseDrawer('token');
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
    <DrawerFrame open={!!id} onClose={close} title={translate('resources.tokens.edit_title')}>
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
    </DrawerFrame>
  );
}
