import { lazy } from 'react';
import ChatIcon from '@mui/icons-material/Chat';
import DashboardIcon from '@mui/icons-material/Dashboard';
import PersonIcon from '@mui/icons-material/Person';
import QueryStatsIcon from '@mui/icons-material/QueryStats';
import SettingsIcon from '@mui/icons-material/Settings';
import SportsEsportsIcon from '@mui/icons-material/SportsEsports';
import WalletIcon from '@mui/icons-material/AccountBalanceWallet';
import { ROLE_ADMIN, ROLE_GUEST, ROLE_ROOT, ROLE_USER } from '../authProvider/roles';
import type { PageDefinition } from '../resources/schema/definition';

/**
 * The self-service pages, each mounted at its own route by App.tsx. `guard` pages need a logged-in
 * user and the page's `access` rule; `bare` pages render without the sidebar (the header and
 * footer still show). Pages with a `menu` appear in the sidebar like resources do.
 */
export type CustomPage = PageDefinition;

const LoginPage = lazy(() => import('./login/LoginPage'));
const OAuthCallbackPage = lazy(() => import('./login/OAuthCallbackPage'));
const RegisterPage = lazy(() => import('./register/RegisterPage'));
const ResetRequestPage = lazy(() => import('./reset/ResetRequestPage'));
const ResetConfirmPage = lazy(() => import('./reset/ResetConfirmPage'));
const SetupPage = lazy(() => import('./setup/SetupPage'));
const HomePage = lazy(() => import('./home/HomePage'));
const AboutPage = lazy(() => import('./home/AboutPage'));
const NotFoundPage = lazy(() => import('./home/NotFoundPage'));
const PersonalPage = lazy(() => import('./personal/PersonalPage'));
const ChatPage = lazy(() => import('./chat/ChatPage'));
const ChannelStatisticsPage = lazy(() => import('./channelStatistics/ChannelStatisticsPage'));
const TopUpPage = lazy(() => import('./topup/TopUpPage'));
const SettingPage = lazy(() => import('./setting/SettingPage'));
const PricingPage = lazy(() => import('./pricing/PricingPage'));
const PlaygroundPage = lazy(() => import('./playground/PlaygroundPage'));
const DashboardPage = lazy(() => import('./detail/DashboardPage'));

export const customPages: CustomPage[] = [
  { path: '/', component: HomePage, guard: false, bare: true, name: 'home', access: { '*': ROLE_GUEST } },
  { path: '/login', component: LoginPage, guard: false, bare: true },
  { path: '/register', component: RegisterPage, guard: false, bare: true },
  { path: '/reset', component: ResetRequestPage, guard: false, bare: true },
  { path: '/user/reset', component: ResetConfirmPage, guard: false, bare: true },
  { path: '/oauth/:type', component: OAuthCallbackPage, guard: false, bare: true },
  { path: '/setup', component: SetupPage, guard: false, bare: true },
  { path: '/about', component: AboutPage, guard: false, name: 'about', access: { '*': ROLE_GUEST } },
  {
    path: '/personal',
    component: PersonalPage,
    guard: true,
    name: 'personal',
    access: { '*': ROLE_USER },
    icon: PersonIcon,
    menu: [{ section: 'personal_section', order: 20 }],
  },
  { path: '/chat/:id?', component: ChatPage, guard: false, bare: true, name: 'chat', access: { '*': ROLE_USER }, icon: ChatIcon },
  { path: '/chat2link', component: ChatPage, guard: false, bare: true },
  {
    path: '/channelStatistics',
    component: ChannelStatisticsPage,
    guard: true,
    name: 'channel_statistics',
    access: { '*': ROLE_ADMIN },
    icon: QueryStatsIcon,
    menu: [{ section: 'admin_section', order: 30 }],
  },
  {
    path: '/topup',
    component: TopUpPage,
    guard: true,
    name: 'topup',
    access: { '*': ROLE_USER },
    icon: WalletIcon,
    menu: [{ section: 'personal_section', order: 10 }],
  },
  {
    path: '/setting',
    component: SettingPage,
    guard: true,
    name: 'setting',
    access: { '*': ROLE_ROOT },
    icon: SettingsIcon,
    menu: [{ section: 'admin_section', order: 90 }],
  },
  { path: '/pricing', component: PricingPage, guard: false, name: 'pricing', access: { '*': ROLE_GUEST } },
  {
    path: '/playground',
    component: PlaygroundPage,
    guard: true,
    name: 'playground',
    access: { '*': ROLE_USER },
    icon: SportsEsportsIcon,
    menu: [{ section: 'chat_section', order: 10 }],
  },
  {
    path: '/detail',
    component: DashboardPage,
    guard: true,
    name: 'dashboard',
    access: { '*': ROLE_USER },
    icon: DashboardIcon,
    menu: [{ section: 'console_section', order: 10, flag: 'enable_data_export' }],
  },
  { path: '*', component: NotFoundPage, guard: false },
];
