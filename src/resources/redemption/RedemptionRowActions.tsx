import { Button, Stack } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useRecordContext, useTranslate } from 'react-admin';
import { useClipboard } from '../../customPages/shared/useClipboard';
import { SchemaEditButton } from '../schema';
import { useRowCommands } from '../shared/useRowCommands';
import { REDEMPTION_DISABLED, REDEMPTION_UNUSED, REDEMPTION_USED, type RedemptionRecord } from './types';

/**
 * Copy, enable / disable, edit and delete (a used code can be neither enabled, disabled
 * nor edited; only an unused one is edited).
 */
export function RedemptionRowActions() {
  const record = useRecordContext<RedemptionRecord>();
  const translate = useTranslate();
  const { copy, dialog } = useClipboard();
  const { disabled, setStatus, deleteButton } = useRowCommands('redemption', record);
  if (!record) return null;

  const used = record.status === REDEMPTION_USED;
  return (
    <Stack direction="row" spacing={0.5} flexWrap="wrap" useFlexGap>
      <Button size="small" startIcon={<ContentCopyIcon />} onClick={() => void copy(record.key)}>
        {translate('resources.redemption.actions.copy')}
      </Button>
      {record.status === REDEMPTION_DISABLED ? (
        <Button size="small" disabled={disabled} onClick={() => void setStatus(REDEMPTION_UNUSED)}>
          {translate('resources.redemption.actions.enable')}
        </Button>
      ) : (
        <Button size="small" color="warning" disabled={disabled || used} onClick={() => void setStatus(REDEMPTION_DISABLED)}>
          {translate('resources.redemption.actions.disable')}
        </Button>
      )}
      <SchemaEditButton resource="redemption" disabled={disabled || record.status !== REDEMPTION_UNUSED} />
      {deleteButton}
      {dialog}
    </Stack>
  );
}
