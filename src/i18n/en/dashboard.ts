/** dashboard: the data dashboard (/detail). */
export const dashboard = {
  title: 'Dashboard',
  disabled: 'The dashboard is not enabled; ask an administrator to turn on data export.',
  start: 'Start time',
  end: 'End time',
  granularity: 'Granularity',
  granularities: {
    hour: 'Hour',
    day: 'Day',
    week: 'Week',
  },
  username: 'Username',
  all_users: 'All users',
  query: 'Query',
  bad_range: 'Please choose a valid time range',
  scope_self: 'My usage',
  scope_all: 'Usage of all users',
  scope_user: 'Usage of user %{username}',
  empty: 'No data in the chosen range',
  refresh_hint:
    'Totals are written every minute: the latest calls can take that long to appear here |||| Totals are written every %{smart_count} minutes: the latest calls can take that long to appear here',
  totals: {
    quota: 'Spend',
    count: 'Calls',
    token_used: 'Tokens',
  },
  charts: {
    quota: 'Spend by model',
    count: 'Calls by model',
    token_used: 'Tokens by model',
  },
};
