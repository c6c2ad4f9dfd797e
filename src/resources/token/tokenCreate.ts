/**
 * Creating tokens: one, or a batch of `count` (one POST each, in order). A failure stops the batch
 * and says why; the tokens made before it stay and show in the refreshed list.
 */
import { useDataProvider, useNotify } from 'react-admin';
import type { CustomCreate } from '../schema';
import { messageOf } from '../shared/errors';
import { batchNames, toTokenBody } from './tokenForm';

export function useTokenCreate(): CustomCreate {
  const dataProvider = useDataProvider();
  const notify = useNotify();
  return {
    submit: async (values, { close, refresh }) => {
      const body = toTokenBody(values);
      let created = 0;
      try {
        for (const name of batchNames(body.name, Number(values.count))) {
          await dataProvider.create('token', { data: { ...body, name } });
          created += 1;
        }
        notify('resources.token.notification.created', { type: 'success', messageArgs: { smart_count: created } });
        close();
      } catch (error) {
        notify(messageOf(error), { type: 'error' });
      }
      if (created > 0) refresh();
    },
  };
}
