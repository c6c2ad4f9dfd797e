import { useState, type MouseEvent } from 'react';
import { Button, Menu, MenuItem } from '@mui/material';
import ChatIcon from '@mui/icons-material/Chat';
import { useNotify, useTranslate } from 'react-admin';
import { storedStatus } from '../../status/status';
import { buildChatLink, ChatLinkError, chatChoices, serverAddress, type ChatEntry } from '../../customPages/chat/chatLink';
import { messageOf } from '../shared/errors';
import { useGateway } from '../../api/customMethods';
import { withPrefix } from './keys';
import type { TokenRecord } from './types';

/**
 * Opens a configured chat client with this token's key in a new tab (a menu when there are
 * several). The tab is opened at the click, before the key is fetched, so no popup blocker stops it.
 */
export function TokenChatButton({ record }: { record: TokenRecord }) {
  const translate = useTranslate();
  const notify = useNotify();
  const gateway = useGateway();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [choices, setChoices] = useState<ChatEntry[]>([]);

  const open = async (entry: ChatEntry) => {
    setAnchor(null);
    const tab = window.open('', '_blank');
    // The chat client is another site: it gets no handle on the console's window.
    if (tab) tab.opener = null;
    try {
      const status = storedStatus();
      if (!entry.template || !status) throw new ChatLinkError('bad_config');
      const url = buildChatLink(entry.template, withPrefix(await gateway.revealTokenKey(record.id)), serverAddress(status));
      if (tab) tab.location.href = url;
      else window.location.assign(url);
    } catch (error) {
      tab?.close();
      notify(messageOf(error), { type: 'error' });
    }
  };

  const click = (event: MouseEvent<HTMLElement>) => {
    let found: ChatEntry[];
    try {
      const status = storedStatus();
      found = status ? chatChoices(status) : [];
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
      return;
    }
    const [only] = found;
    if (!only) notify('resources.token.chat.not_configured', { type: 'error' });
    else if (found.length === 1) void open(only);
    else {
      setChoices(found);
      setAnchor(event.currentTarget);
    }
  };

  return (
    <>
      <Button size="small" startIcon={<ChatIcon />} onClick={click}>
        {translate('resources.token.actions.chat')}
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {choices.map((entry, index) => (
          <MenuItem key={`${index}-${entry.name}`} onClick={() => void open(entry)}>
            {entry.name || translate('resources.token.actions.chat')}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
