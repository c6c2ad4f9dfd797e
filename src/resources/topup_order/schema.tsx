import type { TopUpView } from '../../../server/topup/schemas';
import type { Choice, ResourceSchema } from '../schema';
import { CompleteOrderButton } from './CompleteOrderButton';
import { MethodCell, MoneyCell, OrderStatusCell, PaidTimeCell } from './OrderCells';

/**
 * /topup_order: every user's online top-up orders, newest first, searchable by part of the order
 * number, filtered by method and state; `amount` is the quota an order credits once paid. A pending
 * order can be completed by hand.
 */
const T = 'resources.topup_order';
const METHODS = ['alipay', 'wxpay', 'stripe', 'creem'];
const STATUSES = ['pending', 'success', 'failed', 'expired', 'refunded', 'disputed'];
const choices = (group: string, ids: string[]): Choice[] => ids.map((id) => ({ id, name: `${T}.${group}.${id}` }));

const topupOrderSchema: ResourceSchema<TopUpView> = {
  name: 'topup_order',
  fields: [
    { source: 'keyword', type: 'text', showInFilter: { alwaysOn: true } },
    { source: 'id', type: 'id', showInList: true },
    { source: 'trade_no', type: 'text', showInList: true, column: { maxWidth: 260 } },
    { source: 'username', type: 'virtual', showInList: true, render: (order) => `${order.username} (${order.user_id})` },
    { source: 'amount', type: 'quota', showInList: true },
    { source: 'money', type: 'virtual', showInList: true, render: (order) => <MoneyCell order={order} /> },
    {
      source: 'payment_method',
      type: 'select',
      choices: choices('methods', METHODS),
      showInList: true,
      showInFilter: { alwaysOn: true },
      render: (order) => <MethodCell order={order} />,
    },
    {
      source: 'status',
      type: 'select',
      choices: choices('statuses', STATUSES),
      showInList: true,
      showInFilter: { alwaysOn: true },
      render: (order) => <OrderStatusCell order={order} />,
    },
    { source: 'create_time', type: 'date', showInList: true, column: { nowrap: true } },
    {
      source: 'complete_time',
      type: 'virtual',
      showInList: true,
      render: (order) => <PaidTimeCell order={order} />,
      column: { nowrap: true },
    },
  ],
  rowActions: CompleteOrderButton,
};

export default topupOrderSchema;
