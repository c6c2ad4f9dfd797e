/**
 * "Complete": an admin marks a pending order paid by hand (a payment the provider's webhook never
 * delivered), after a confirmation; the server credits it once and audits the change.
 */
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Button } from '@mui/material';
import { Confirm, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import type { TopUpView } from '../../../server/topup/schemas';
import { useGateway } from '../../api/customMethods';
import { messageOf } from '../shared/errors';

const T = 'resources.topup_order';

export function CompleteOrderButton() {
  const order = useRecordContext<TopUpView>();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const gateway = useGateway();
  const [open, setOpen] = useState(false);
  const completing = useMutation({
    mutationFn: (tradeNo: string) => gateway.completeTopUpOrder(tradeNo),
    onSuccess: () => {
      notify(`${T}.notification.completed`, { type: 'success' });
      refresh();
    },
    onError: (error: unknown) => notify(messageOf(error), { type: 'error' }),
  });
  if (!order || order.status !== 'pending') return null;
  return (
    <>
      <Button size="small" disabled={completing.isPending} onClick={() => setOpen(true)}>
        {translate(`${T}.actions.complete`)}
      </Button>
      <Confirm
        isOpen={open}
        title={`${T}.confirm.complete_title`}
        content={`${T}.confirm.complete_content`}
        translateOptions={{ trade_no: order.trade_no }}
        onConfirm={() => {
          setOpen(false);
          completing.mutate(order.trade_no);
        }}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
