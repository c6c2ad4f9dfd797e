import { lazy, type ComponentType } from 'react';

/**
 * The self-service pages, each mounted at its own route by App.tsx. `guard` pages need a logged-in
 * user; `bare` pages render without the sidebar (the header and footer still show).
 */
export interface CustomPage {
  path: string;
  component: ComponentType;
  guard: boolean;
  bare?: boolean;
}

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
  { path: '/', component: HomePage, guard: false, bare: true },
  { path: '/login', component: LoginPage, guard: false, bare: true },
  { path: '/register', component: RegisterPage, guard: false, bare: true },
  { path: '/reset', component: ResetRequestPage, guard: false, bare: true },
  { path: '/user/reset', component: ResetConfirmPage, guard: false, bare: true },
  { path: '/oauth/:type', component: OAuthCallbackPage, guard: false, bare: true },
  { path: '/setup', component: SetupPage, guard: false, bare: true },
  { path: '/about', component: AboutPage, guard: false },
  { path: '/personal', component: PersonalPage, guard: true },
  { path: '/chat/:id?', component: ChatPage, guard: false, bare: true },
  { path: '/chat2link', component: ChatPage, guard: false, bare: true },
  { path: '/channelStatistics', component: ChannelStatisticsPage, guard: true },
  { path: '/topup', component: TopUpPage, guard: true },
  { path: '/setting', component: SettingPage, guard: true },
  { path: '/pricing', component: PricingPage, guard: false },
  { path: '/playground', component: PlaygroundPage, guard: true },
  { path: '/detail', component: DashboardPage, guard: true },
  { path: '*', component: NotFoundPage, guard: false },
];
