/** The token drawers: create (one or a batch) and edit, around TokenInputs. */
import { useDataProvider, useNotify, useRefresh, type RaRecord } from 'react-admin';
import { messageOf } from '../shared/errors';
import { CreateFormDrawer, EditFormDrawer } from '../shared/FormDrawers';
import { batchNames, CREATE_DEFAULTS, toTokenBody } from './tokenForm';
import { TokenInputs } from './TokenInputs';

/**
 * `/token/create`: one token, or a batch of `count` (one POST each, in order). A failure stops the
 * batch and says why; the tokens made before it stay and show in the refreshed list.
 */
export function TokenCreateDrawer() {
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();

  const submit = async (values: Record<string, unknown>, close: () => void) => {
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
    <CreateFormDrawer resource="token" i18n="tokens" defaultValues={CREATE_DEFAULTS} onSubmit={submit}>
      <TokenInputs mode="create" />
    </CreateFormDrawer>
  );
}

/** `/token/edit/{id}`: PUT /api/token/ with the id and every editable field. */
export function TokenEditDrawer() {
  return (
    <EditFormDrawer resource="token" i18n="tokens" transform={(data: RaRecord) => ({ id: data.id, ...toTokenBody(data) })}>
      <TokenInputs mode="edit" />
    </EditFormDrawer>
  );
}
