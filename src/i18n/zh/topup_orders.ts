/** resources.topup_order: online top-up orders (/topup_order), and the wallet's list of one's own */
export const topupOrders = {
  name: '充值订单',
  fields: {
    keyword: '搜索订单号',
    id: 'ID',
    trade_no: '订单号',
    username: '用户',
    amount: '充值额度',
    money: '支付金额',
    payment_method: '支付方式',
    status: '状态',
    create_time: '下单时间',
    complete_time: '支付时间',
  },
  methods: {
    alipay: '支付宝',
    wxpay: '微信',
    stripe: 'Stripe',
    creem: 'Creem',
  },
  statuses: {
    pending: '待支付',
    success: '已支付',
    failed: '支付失败',
    expired: '已过期',
    refunded: '已退款',
    disputed: '争议中（已扣回）',
  },
  actions: {
    complete: '补单',
  },
  confirm: {
    complete_title: '确认补单',
    complete_content: '将订单 %{trade_no} 标记为已支付，并为用户充值对应额度？',
  },
  notification: {
    completed: '订单已补单，额度已到账',
  },
  mine: {
    title: '我的充值订单',
    empty: '暂无充值订单',
    previous: '上一页',
    next: '下一页',
  },
};
