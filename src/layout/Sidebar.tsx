import { Fragment, useState, type ComponentType } from 'react';
import {
  Box,
  Divider,
  IconButton,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  ListSubheader,
  Tooltip,
} from '@mui/material';
import ChatIcon from '@mui/icons-material/Chat';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { useGetResourceLabel, useTranslate } from 'react-admin';
import { Link, useLocation } from 'react-router-dom';
import { SIDEBAR_CLOSED_WIDTH, SIDEBAR_WIDTH } from '../theme';
import { storedFlags, visibleMenu } from './menu';

export const COLLAPSE_KEY = 'default_collapse_sidebar';

/** Saved chats from the status (`[{ "name": "url" }, …]`), shown as /chat/{index}. */
export function chatNames(chats: unknown[] | undefined): string[] {
  return (chats ?? []).map((chat, index) => {
    const name = chat && typeof chat === 'object' ? Object.keys(chat)[0] : undefined;
    return name ?? `Chat ${index + 1}`;
  });
}

function SidebarLink({
  path,
  label,
  Icon,
  collapsed,
  selected,
}: {
  path: string;
  label: string;
  Icon: ComponentType;
  collapsed: boolean;
  selected: boolean;
}) {
  const button = (
    <ListItemButton component={Link} to={path} selected={selected} sx={{ minHeight: 40, px: collapsed ? 2.25 : 2 }}>
      <ListItemIcon sx={{ minWidth: collapsed ? 0 : 36 }}>
        <Icon />
      </ListItemIcon>
      {!collapsed && <ListItemText primary={label} slotProps={{ primary: { noWrap: true } }} />}
    </ListItemButton>
  );
  return collapsed ? (
    <Tooltip title={label} placement="right">
      {button}
    </Tooltip>
  ) : (
    button
  );
}

/**
 * Every sidebar destination this person may see, by section: the saved chats under the chat
 * section. `onNavigate` runs after a choice (the phone's drawer closes).
 */
export function MenuList({
  role,
  chats,
  collapsed = false,
  onNavigate,
}: {
  role: number;
  chats: unknown[] | undefined;
  collapsed?: boolean;
  onNavigate?: () => void;
}) {
  const translate = useTranslate();
  const resourceLabel = useGetResourceLabel();
  const { pathname } = useLocation();
  const isSelected = (path: string) => pathname === path || pathname.startsWith(`${path}/`);
  return (
    <List dense sx={{ flex: 1, py: 0 }} onClick={onNavigate}>
      {visibleMenu(role, storedFlags()).map((section) => (
        <Fragment key={section.key}>
          {collapsed ? (
            <Divider />
          ) : (
            <ListSubheader sx={{ lineHeight: '32px' }}>{translate(`app.sidebar.${section.key}`)}</ListSubheader>
          )}
          {section.items.map((item) => (
            <SidebarLink
              key={item.key}
              path={item.path}
              label={translate(`app.sidebar.${item.key}`, { _: resourceLabel(item.resource, 2) })}
              Icon={item.icon ?? ChatIcon}
              collapsed={collapsed}
              selected={isSelected(item.path)}
            />
          ))}
          {section.key === 'chat_section' &&
            chatNames(chats).map((name, index) => (
              <SidebarLink
                key={`chat-${index}`}
                path={`/chat/${index}`}
                label={name}
                Icon={ChatIcon}
                collapsed={collapsed}
                selected={isSelected(`/chat/${index}`)}
              />
            ))}
        </Fragment>
      ))}
    </List>
  );
}

/** The console sidebar: 200 px, or 60 px collapsed (remembered as `default_collapse_sidebar`). */
export function Sidebar({ role, chats }: { role: number; chats: unknown[] | undefined }) {
  const translate = useTranslate();
  const [collapsed, setCollapsed] = useState(() => localStorage.getItem(COLLAPSE_KEY) === 'true');
  const toggle = () => {
    localStorage.setItem(COLLAPSE_KEY, String(!collapsed));
    setCollapsed(!collapsed);
  };

  return (
    <Box
      component="nav"
      aria-label={translate('app.sidebar.console_section')}
      sx={{
        width: collapsed ? SIDEBAR_CLOSED_WIDTH : SIDEBAR_WIDTH,
        flexShrink: 0,
        borderRight: 1,
        borderColor: 'divider',
        display: 'flex',
        flexDirection: 'column',
        overflowX: 'hidden',
        transition: (theme) => theme.transitions.create('width'),
      }}
    >
      <MenuList role={role} chats={chats} collapsed={collapsed} />
      <Divider />
      <Box sx={{ display: 'flex', justifyContent: collapsed ? 'center' : 'flex-end', p: 0.5 }}>
        <IconButton
          size="small"
          onClick={toggle}
          aria-label={translate(collapsed ? 'app.sidebar.expand' : 'app.sidebar.collapse')}
        >
          {collapsed ? <ChevronRightIcon /> : <ChevronLeftIcon />}
        </IconButton>
      </Box>
    </Box>
  );
}
