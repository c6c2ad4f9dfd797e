/** Backup codes shown once: as a list, with copy and download (a text file). */
import { useNotify, useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { storedUser } from '../../../api/client';
import { useStatus } from '../../../status/status';

export function BackupCodesList({ codes }: { codes: string[] }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { status } = useStatus();
  const header = translate('security.personal.codes.file_header', {
    site: status?.system_name ?? '',
    user: storedUser()?.username ?? '',
  });

  const copy = () => {
    void navigator.clipboard
      .writeText(codes.join('\n'))
      .then(() => notify('security.personal.codes.copied', { type: 'info' }))
      .catch(() => undefined);
  };
  const download = () => {
    const blob = new Blob([`${header}\n\n${codes.join('\n')}\n`], { type: 'text/plain' });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = 'backup-codes.txt';
    link.click();
    URL.revokeObjectURL(link.href);
  };

  return (
    <Stack spacing={1}>
      <Alert severity="warning">{translate('security.personal.codes.once')}</Alert>
      <Box
        component="ul"
        aria-label={translate('security.personal.codes.title')}
        sx={{
          m: 0,
          p: 1.5,
          listStyle: 'none',
          display: 'grid',
          gridTemplateColumns: 'repeat(2, 1fr)',
          gap: 0.5,
          fontFamily: 'monospace',
          bgcolor: 'action.hover',
          borderRadius: 1,
        }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Stack direction="row" spacing={1}>
        <Button size="small" onClick={copy}>
          {translate('security.personal.codes.copy')}
        </Button>
        <Button size="small" onClick={download}>
          {translate('security.personal.codes.download')}
        </Button>
      </Stack>
    </Stack>
  );
}
