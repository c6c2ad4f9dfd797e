/**
 * The commands of a row whose status is switched through the dataProvider's `setRowStatus` and
 * which is deleted after a confirmation (tokens, redemption codes, models, vendors). Texts: `resources.<resource>.notification.status_changed` / `.deleted`,
 * `.actions.delete`, `.confirm.delete_title` / `.delete_content` (given the record's `name`, or
 * what `nameOf` reads).
 */
import { useState, type ReactNode } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Button } from '@mui/material';
import { Confirm, useDelete, useNotify, useRefresh, useTranslate, type RaRecord } from 'react-admin';
import { useGateway } from '../../api/customMethods';
import type { StatusResource } from '../../api/statusMethods';
import { messageOf } from './errors';

export interface RowCommands {
  /** True while a command runs (the row's buttons are off). */
  disabled: boolean;
  /** Runs a task as a command: the buttons are off meanwhile, a failure is notified. */
  run: (task: () => Promise<void>) => void;
  /** Sets the status; the server's refusal (e.g. an expired token) is shown as it says it. */
  setStatus: (status: number) => void;
  /** The delete button and its confirmation dialog. */
  deleteButton: ReactNode;
}

export interface RowCommandOptions<R> {
  /** The record's name in the delete confirmation; its `name` by default. */
  nameOf?: (record: R) => string;
}

export function useRowCommands<R extends RaRecord>(
  resource: StatusResource,
  record: R | undefined,
  { nameOf = (r) => String(r.name ?? '') }: RowCommandOptions<R> = {},
): RowCommands {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [remove, { isPending: removing }] = useDelete<R>();
  const gateway = useGateway();
  const command = useMutation({
    mutationFn: (task: () => Promise<void>) => task(),
    onError: (error: unknown) => notify(messageOf(error), { type: 'error' }),
  });
  const [confirming, setConfirming] = useState(false);
  const disabled = command.isPending || removing;

  const run = (task: () => Promise<void>) => command.mutate(task);

  const setStatus = (status: number) =>
    run(async () => {
      if (!record) return;
      await gateway.setRowStatus(resource, record.id, status);
      notify(`resources.${resource}.notification.status_changed`, { type: 'success' });
      refresh();
    });

  const deleteRecord = () => {
    setConfirming(false);
    if (!record) return;
    void remove(
      resource,
      { id: record.id, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify(`resources.${resource}.notification.deleted`, { type: 'success' });
          refresh();
        },
        onError: (error) => notify(messageOf(error), { type: 'error' }),
      },
    );
  };

  const deleteButton = record ? (
    <>
      <Button size="small" color="error" disabled={disabled} onClick={() => setConfirming(true)}>
        {translate(`resources.${resource}.actions.delete`)}
      </Button>
      <Confirm
        isOpen={confirming}
        title={`resources.${resource}.confirm.delete_title`}
        content={`resources.${resource}.confirm.delete_content`}
        translateOptions={{ name: nameOf(record) }}
        onConfirm={deleteRecord}
        onClose={() => setConfirming(false)}
      />
    </>
  ) : null;

  return { disabled, run, setStatus, deleteButton };
}
