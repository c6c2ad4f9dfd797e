/**
 * The sidebar as data (spec 2): sections of items, each with the route, the access check through
 * canAccess, and the stored status flag that must be 'true' for it to show.
 */
import { canAccess } from '../authProvider/canAccess';

export type FlagKey = 'enable_data_export' | 'enable_drawing' | 'enable_task';

export interface MenuItem {
  key: string;
  path: string;
  /** canAccess resource; the action is `menu`. */
  resource: string;
  flag?: FlagKey;
}

export interface MenuSection {
  key: string;
  items: MenuItem[];
}

export const MENU: MenuSection[] = [
  {
    key: 'chat_section',
    items: [{ key: 'playground', path: '/playground', resource: 'playground' }],
  },
  {
    key: 'console_section',
    items: [
      { key: 'dashboard', path: '/detail', resource: 'dashboard', flag: 'enable_data_export' },
      { key: 'token', path: '/token', resource: 'token' },
      { key: 'log', path: '/log', resource: 'log' },
      { key: 'midjourney', path: '/midjourney', resource: 'midjourney', flag: 'enable_drawing' },
      { key: 'task', path: '/task', resource: 'task', flag: 'enable_task' },
    ],
  },
  {
    key: 'admin_section',
    items: [
      { key: 'channel', path: '/channel', resource: 'channel' },
      { key: 'channel_new', path: '/newChannel', resource: 'channel' },
      { key: 'channel_statistics', path: '/channelStatistics', resource: 'channel_statistics' },
      { key: 'log_new', path: '/newLog', resource: 'log' },
      { key: 'token_new', path: '/newToken', resource: 'token' },
      { key: 'redemption', path: '/redemption', resource: 'redemption' },
      { key: 'user', path: '/user', resource: 'user' },
      { key: 'user_new', path: '/newUser', resource: 'user' },
      { key: 'setting', path: '/setting', resource: 'setting' },
    ],
  },
  {
    key: 'personal_section',
    items: [
      { key: 'topup', path: '/topup', resource: 'topup' },
      { key: 'personal', path: '/personal', resource: 'personal' },
    ],
  },
];

/**
 * The admin section lists the "new" log and token screens too; they are the admin views, so they
 * need admin rights even though the person's own log and tokens do not.
 */
const ADMIN_ONLY = new Set(['log_new', 'token_new']);

/** The sections and items this person may see, given the stored flags. */
export function visibleMenu(role: number, flags: Partial<Record<FlagKey, boolean>>): MenuSection[] {
  return MENU.map((section) => ({
    ...section,
    items: section.items.filter((item) => {
      if (item.flag && !flags[item.flag]) return false;
      if (ADMIN_ONLY.has(item.key) && !canAccess(role, { resource: item.resource, action: 'all_users' })) return false;
      return canAccess(role, { resource: item.resource, action: 'menu' });
    }),
  })).filter((section) => section.items.length > 0);
}

/** The stored flags (`localStorage`, written from the server status). */
export function storedFlags(): Record<FlagKey, boolean> {
  const flag = (key: FlagKey) => localStorage.getItem(key) === 'true';
  return {
    enable_data_export: flag('enable_data_export'),
    enable_drawing: flag('enable_drawing'),
    enable_task: flag('enable_task'),
  };
}

/** Pages without a sidebar: home, chat, setup (spec 2), besides the bare custom pages. */
export function pathHidesSidebar(pathname: string): boolean {
  return (
    pathname === '/' ||
    pathname === '/setup' ||
    pathname === '/chat' ||
    pathname.startsWith('/chat/') ||
    pathname.startsWith('/chat2link')
  );
}
