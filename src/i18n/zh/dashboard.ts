/** dashboard: the data dashboard (/detail). */
export const dashboard = {
  title: '数据看板',
  disabled: '数据看板未启用，请联系管理员开启数据导出。',
  start: '起始时间',
  end: '结束时间',
  granularity: '时间粒度',
  granularities: {
    hour: '小时',
    day: '天',
    week: '周',
  },
  username: '用户名',
  all_users: '全部用户',
  query: '查询',
  bad_range: '请选择有效的时间范围',
  scope_self: '我的用量',
  scope_all: '全部用户的用量',
  scope_user: '用户 %{username} 的用量',
  empty: '所选时间范围内没有数据',
  refresh_hint: '统计数据每 %{smart_count} 分钟写入一次，最新的调用可能要等这么久才会显示在这里',
  totals: {
    quota: '消耗额度',
    count: '调用次数',
    token_used: 'Token 用量',
  },
  charts: {
    quota: '模型消耗分布',
    count: '模型调用次数',
    token_used: '模型 Token 用量',
  },
};
