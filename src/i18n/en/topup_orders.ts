/** resources.topup_order: online top-up orders (/topup_order), and the wallet's list of one's own */
export const topupOrders = {
  name: 'Top-up orders',
  fields: {
    keyword: 'Search by order number',
    id: 'ID',
    trade_no: 'Order number',
    username: 'User',
    amount: 'Quota',
    money: 'Paid',
    payment_method: 'Method',
    status: 'Status',
    create_time: 'Ordered',
    complete_time: 'Paid at',
  },
  methods: {
    alipay: 'Alipay',
    wxpay: 'WeChat Pay',
  },
  statuses: {
    pending: 'Awaiting payment',
    success: 'Paid',
  },
  mine: {
    title: 'My top-up orders',
    empty: 'No top-up orders yet',
    previous: 'Previous',
    next: 'Next',
  },
};
