/**
 * The phone's navigation: the menu button of the app bar opens a drawer with the header's links
 * and every sidebar destination this person may see (the sidebar itself is hidden below 600 px).
 */
import { useState } from 'react';
import { Box, Divider, Drawer, IconButton, List, ListItemButton, ListItemText } from '@mui/material';
import MenuIcon from '@mui/icons-material/Menu';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { StoredUser } from '../api/client';
import { MenuList } from './Sidebar';

export interface NavItem {
  key: string;
  to: string;
  external?: boolean;
}

export function MobileNav({ items, user, chats }: { items: NavItem[]; user: StoredUser | null; chats: unknown[] | undefined }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  return (
    <>
      <IconButton color="inherit" edge="start" onClick={() => setOpen(true)} aria-label={translate('app.header.open_menu')}>
        <MenuIcon />
      </IconButton>
      <Drawer anchor="left" open={open} onClose={close}>
        <Box component="nav" aria-label={translate('app.header.menu')} sx={{ width: 260, maxWidth: '85vw' }}>
          <List dense onClick={close}>
            {items.map((item) =>
              item.external ? (
                <ListItemButton key={item.key} component="a" href={item.to} target="_blank" rel="noreferrer">
                  <ListItemText primary={translate(`app.header.${item.key}`)} />
                </ListItemButton>
              ) : (
                <ListItemButton key={item.key} component={Link} to={item.to}>
                  <ListItemText primary={translate(`app.header.${item.key}`)} />
                </ListItemButton>
              ),
            )}
          </List>
          {user && (
            <>
              <Divider />
              <MenuList role={user.role} chats={chats} onNavigate={close} />
            </>
          )}
        </Box>
      </Drawer>
    </>
  );
}
