/**
 * /setting: the super admin's settings, one tab per area, chosen by the `tab` query parameter
 * (operation, ratelimit, models, system, other; operation by default). Each tab loads on first visit.
 * Anyone else is sent on to their personal page (where a bind through /oauth/{type} lands).
 */
import { lazy, Suspense } from 'react';
import { useTranslate } from 'react-admin';
import { Navigate, useSearchParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { storedUser } from '../../api/client';
import { useAccessPolicy } from '../../authProvider/access';

export const SETTING_TABS = ['operation', 'ratelimit', 'models', 'system', 'other'] as const;
export type SettingTab = (typeof SETTING_TABS)[number];

const TAB_PAGES = {
  operation: lazy(() => import('./operation/OperationSettings')),
  ratelimit: lazy(() => import('./ratelimit/RateLimitSettings')),
  models: lazy(() => import('./models/ModelSettings')),
  system: lazy(() => import('./system/SystemSettings')),
  other: lazy(() => import('./other/OtherSettings')),
} satisfies Record<SettingTab, unknown>;

function isTab(value: string | null): value is SettingTab {
  return (SETTING_TABS as readonly string[]).includes(value ?? '');
}

export default function SettingPage() {
  const translate = useTranslate();
  const [params, setParams] = useSearchParams();
  const may = useAccessPolicy();
  const user = storedUser();
  if (!user || !may(user.role, { resource: 'setting', action: 'list' })) {
    return <Navigate to="/personal" replace />;
  }
  const requested = params.get('tab');
  const tab: SettingTab = isTab(requested) ? requested : 'operation';
  const Page = TAB_PAGES[tab];
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Tabs
        value={tab}
        onChange={(_, next: SettingTab) => setParams({ tab: next })}
        variant="scrollable"
        scrollButtons="auto"
        allowScrollButtonsMobile
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
      >
        {SETTING_TABS.map((key) => (
          <Tab key={key} value={key} label={translate(`settings.tabs.${key}`)} />
        ))}
      </Tabs>
      <Suspense fallback={<CircularProgress size={24} />}>
        <Page />
      </Suspense>
    </Box>
  );
}
