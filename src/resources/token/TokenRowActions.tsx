import { Button, Stack } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useRecordContext, useTranslate } from 'react-admin';
import { useClipboard } from '../../customPages/shared/useClipboard';
import { SchemaEditButton } from '../schema';
import { useRowCommands } from '../shared/useRowCommands';
import { useGateway } from '../../api/customMethods';
import { withPrefix } from './keys';
import { TokenChatButton } from './TokenChatButton';
import { TOKEN_DISABLED, TOKEN_ENABLED, type TokenRecord } from './types';

/**
 * Copy key, chat, enable / disable, edit and delete. The server refuses to enable an expired or
 * exhausted token and says why.
 */
export function TokenRowActions() {
  const record = useRecordContext<TokenRecord>();
  const translate = useTranslate();
  const { copy, dialog } = useClipboard();
  const { disabled, run, setStatus, deleteButton } = useRowCommands('token', record);
  const gateway = useGateway();
  if (!record) return null;

  const copyKey = () =>
    run(async () => {
      await copy(withPrefix(await gateway.revealTokenKey(record.id)));
    });

  const enabled = record.status === TOKEN_ENABLED;
  return (
    <Stack direction="row" spacing={0.5} flexWrap="wrap" useFlexGap>
      <Button size="small" startIcon={<ContentCopyIcon />} disabled={disabled} onClick={() => void copyKey()}>
        {translate('resources.token.actions.copy')}
      </Button>
      <TokenChatButton record={record} />
      {enabled ? (
        <Button size="small" color="warning" disabled={disabled} onClick={() => void setStatus(TOKEN_DISABLED)}>
          {translate('resources.token.actions.disable')}
        </Button>
      ) : (
        <Button size="small" disabled={disabled} onClick={() => void setStatus(TOKEN_ENABLED)}>
          {translate('resources.token.actions.enable')}
        </Button>
      )}
      <SchemaEditButton resource="token" disabled={disabled} />
      {deleteButton}
      {dialog}
    </Stack>
  );
}
