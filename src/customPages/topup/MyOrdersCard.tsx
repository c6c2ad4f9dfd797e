/** The wallet's list of the person's own online top-up orders (GET /api/user/topup/self), ten a page. */
import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useGateway } from '../../api/customMethods';
import { formatTimestamp } from '../../resources/schema';
import { MethodCell, MoneyCell, OrderStatusCell, PaidTimeCell } from '../../resources/topup_order/OrderCells';
import { formatQuota } from '../../status/status';
import { errorMessage } from '../shared/errors';

const PAGE_SIZE = 10;
const T = 'resources.topup_order';

export function MyOrdersCard() {
  const translate = useTranslate();
  const gateway = useGateway();
  const [page, setPage] = useState(1);
  const { data, error } = useQuery({
    queryKey: ['topup-orders-self', page],
    queryFn: () => gateway.getMyTopUpOrders(page, PAGE_SIZE),
    // The current page stays on screen while the next one loads.
    placeholderData: keepPreviousData,
  });
  const orders = data?.items ?? [];
  const pages = Math.max(1, Math.ceil((data?.total ?? 0) / PAGE_SIZE));
  const column = (source: string) => <TableCell key={source}>{translate(`${T}.fields.${source}`)}</TableCell>;
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {translate(`${T}.mine.title`)}
        </Typography>
        {error && <Typography color="error">{translate(errorMessage(error))}</Typography>}
        {data && orders.length === 0 && <Typography color="text.secondary">{translate(`${T}.mine.empty`)}</Typography>}
        {orders.length > 0 && (
          <Table size="small" aria-label={translate(`${T}.mine.title`)}>
            <TableHead>
              <TableRow>
                {['trade_no', 'amount', 'money', 'payment_method', 'status', 'create_time', 'complete_time'].map(column)}
              </TableRow>
            </TableHead>
            <TableBody>
              {orders.map((order) => (
                <TableRow key={order.id}>
                  <TableCell sx={{ wordBreak: 'break-all' }}>{order.trade_no}</TableCell>
                  <TableCell>{formatQuota(order.amount)}</TableCell>
                  <TableCell>
                    <MoneyCell order={order} />
                  </TableCell>
                  <TableCell>
                    <MethodCell order={order} />
                  </TableCell>
                  <TableCell>
                    <OrderStatusCell order={order} />
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTimestamp(order.create_time)}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    <PaidTimeCell order={order} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        {pages > 1 && (
          <Stack direction="row" spacing={1} alignItems="center" justifyContent="flex-end" sx={{ mt: 1 }}>
            <Button size="small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              {translate(`${T}.mine.previous`)}
            </Button>
            <Typography variant="body2">{`${page} / ${pages}`}</Typography>
            <Button size="small" disabled={page >= pages} onClick={() => setPage(page + 1)}>
              {translate(`${T}.mine.next`)}
            </Button>
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}
