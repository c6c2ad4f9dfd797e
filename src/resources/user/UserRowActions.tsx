import { useState } from 'react';
import { Button, Stack } from '@mui/material';
import { Confirm, useDelete, useNotify, useRecordContext, useRefresh, useTranslate, useUpdate } from 'react-admin';
import { useAccessPolicy } from '../../authProvider/access';
import { SchemaEditButton, useRole } from '../schema';
import type { ManageMeta } from '../../dataProvider/types';
import { USER_STATUS_ACTIVE, USER_STATUS_LOCKED, type ManageAction, type UserRecord } from './types';

/**
 * promote, demote, disable / enable, edit and deregister. Each goes through POST /api/user/manage;
 * the answered status and role update the row. Deregistered users get no actions.
 */
export function UserRowActions() {
  const record = useRecordContext<UserRecord>();
  const role = useRole();
  const may = useAccessPolicy();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [update, { isPending: updating }] = useUpdate<UserRecord>();
  const [remove, { isPending: removing }] = useDelete<UserRecord>();
  const [confirming, setConfirming] = useState(false);
  if (!record || record.DeletedAt) return null;

  const allowed = (action: ManageAction) => may(role, { resource: 'user', action, record });
  const failed = (error: unknown) =>
    notify(error instanceof Error ? error.message : 'app.error.request_failed', { type: 'error' });
  const manage = (action: Exclude<ManageAction, 'delete'>) => {
    const meta: ManageMeta = { manage: action };
    void update(
      'user',
      { id: record.id, data: {}, previousData: record, meta },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => notify('resources.user.notification.managed', { type: 'success' }),
        onError: failed,
      },
    );
  };
  const deregister = () => {
    setConfirming(false);
    void remove(
      'user',
      { id: record.id, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify('resources.user.notification.managed', { type: 'success' });
          refresh();
        },
        onError: failed,
      },
    );
  };
  const busy = updating || removing;
  const active = record.status === USER_STATUS_ACTIVE;

  return (
    <Stack direction="row" spacing={0.5} flexWrap="wrap" useFlexGap>
      <Button size="small" disabled={busy || !allowed('promote')} onClick={() => manage('promote')}>
        {translate('resources.user.actions.promote')}
      </Button>
      <Button size="small" disabled={busy || !allowed('demote')} onClick={() => manage('demote')}>
        {translate('resources.user.actions.demote')}
      </Button>
      {active ? (
        <Button size="small" color="warning" disabled={busy || !allowed('disable')} onClick={() => manage('disable')}>
          {translate('resources.user.actions.disable')}
        </Button>
      ) : (
        <Button
          size="small"
          disabled={busy || record.status === USER_STATUS_LOCKED || !allowed('enable')}
          onClick={() => manage('enable')}
        >
          {translate('resources.user.actions.enable')}
        </Button>
      )}
      <SchemaEditButton resource="user" disabled={!may(role, { resource: 'user', action: 'edit', record })} />
      <Button size="small" color="error" disabled={busy || !allowed('delete')} onClick={() => setConfirming(true)}>
        {translate('resources.user.actions.deregister')}
      </Button>
      <Confirm
        isOpen={confirming}
        title="resources.user.confirm.deregister_title"
        content="resources.user.confirm.deregister_content"
        onConfirm={deregister}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}
