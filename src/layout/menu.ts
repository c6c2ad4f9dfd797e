/**
 * The sidebar as data, built from what the resources and custom pages declare: sections of items,
 * each with its route, icon, the access check through canAccess, and the stored status flag that
 * must be 'true' for it to show.
 */
import type { SvgIconComponent } from '@mui/icons-material';
import { canAccess } from '../authProvider/canAccess';
import { customPages } from '../customPages';
import { resources } from '../resources/registry';
import { MENU_SECTIONS, type FlagKey, type MenuEntry, type MenuSectionKey } from '../resources/schema/definition';

export type { FlagKey };

export interface MenuItem {
  /** Label key under `app.sidebar`. */
  key: string;
  path: string;
  section: MenuSectionKey;
  /** canAccess resource. */
  resource: string;
  /** canAccess action (`menu` unless the entry says otherwise). */
  action: string;
  flag?: FlagKey;
  icon?: SvgIconComponent;
  order: number;
}

export interface MenuSection {
  key: MenuSectionKey;
  items: MenuItem[];
}

function item(name: string, path: string, icon: SvgIconComponent | undefined, entry: MenuEntry): MenuItem {
  return {
    key: entry.key ?? name,
    path: entry.path ?? path,
    section: entry.section,
    resource: name,
    action: entry.action ?? 'menu',
    flag: entry.flag,
    icon: entry.icon ?? icon,
    order: entry.order,
  };
}

const ITEMS: MenuItem[] = [
  ...resources.flatMap((r) => r.menu.map((entry) => item(r.name, `/${r.name}`, r.icon, entry))),
  ...customPages.flatMap((page) => (page.menu ?? []).map((entry) => item(page.name ?? page.path, page.path, page.icon, entry))),
];

export const MENU: MenuSection[] = MENU_SECTIONS.map((key) => ({
  key,
  items: ITEMS.filter((i) => i.section === key).sort((a, b) => a.order - b.order),
}));

/** The sections and items this person may see, given the stored flags. */
export function visibleMenu(role: number, flags: Partial<Record<FlagKey, boolean>>): MenuSection[] {
  return MENU.map((section) => ({
    ...section,
    items: section.items.filter((i) => (!i.flag || flags[i.flag]) && canAccess(role, { resource: i.resource, action: i.action })),
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

/** Pages without a sidebar: home, chat, setup, besides the bare custom pages. */
export function pathHidesSidebar(pathname: string): boolean {
  return (
    pathname === '/' ||
    pathname === '/setup' ||
    pathname === '/chat' ||
    pathname.startsWith('/chat/') ||
    pathname.startsWith('/chat2link')
  );
}

/** Extra paths that lead to a resource's list (`/newChannel` → `/channel`). */
export const ALIASES: { path: string; to: string }[] = resources.flatMap((r) =>
  r.menu.filter((entry) => entry.alias && entry.path).map((entry) => ({ path: entry.path as string, to: `/${r.name}` })),
);
