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
    stripe: 'Stripe',
    creem: 'Creem',
  },
  statuses: {
    pending: 'Awaiting payment',
    success: 'Paid',
    failed: 'Failed',
    expired: 'Expired',
    refunded: 'Refunded',
    disputed: 'Disputed (taken back)',
  },
  actions: {
    complete: 'Complete',
  },
  confirm: {
    complete_title: 'Complete this order',
    complete_content: 'Mark order %{trade_no} as paid and credit its quota to the user?',
  },
  notification: {
    completed: 'The order is completed and its quota credited',
  },
  mine: {
    title: 'My top-up orders',
    empty: 'No top-up orders yet',
    previous: 'Previous',
    next: 'Next',
  },
};
