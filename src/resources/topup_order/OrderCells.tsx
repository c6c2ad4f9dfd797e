/** List cells of a top-up order: who ordered, the amount paid, the method and the state. Shared with the wallet page. */
import { Chip } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { TopUpView } from '../../../server/topup/schemas';
import { formatTimestamp } from '../schema';

const T = 'resources.topup_order';

/** EPay orders are paid in yuan; card orders in the currency of their checkout. */
const IN_YUAN = new Set(['alipay', 'wxpay']);

export function MoneyCell({ order }: { order: TopUpView }) {
  return <>{`${IN_YUAN.has(order.payment_method) ? '¥' : ''}${order.money.toFixed(2)}`}</>;
}

/** The method by its name (alipay, wxpay, stripe, creem); an unknown one as it is. */
export function MethodCell({ order }: { order: TopUpView }) {
  const translate = useTranslate();
  return <>{translate(`${T}.methods.${order.payment_method}`, { _: order.payment_method })}</>;
}

export function OrderStatusCell({ order }: { order: TopUpView }) {
  const translate = useTranslate();
  const color =
    order.status === 'success' ? 'success' : order.status === 'refunded' || order.status === 'disputed' ? 'error' : 'default';
  return (
    <Chip size="small" variant="outlined" color={color} label={translate(`${T}.statuses.${order.status}`, { _: order.status })} />
  );
}

/** When the order was paid; a dash while it is not. */
export function PaidTimeCell({ order }: { order: TopUpView }) {
  return <>{order.complete_time > 0 ? formatTimestamp(order.complete_time) : '—'}</>;
}
