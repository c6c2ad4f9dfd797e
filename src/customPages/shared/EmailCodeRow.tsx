/** An e-mail address with a "send code" button beside it, showing the resend countdown (register, bind e-mail). */
import type { ChangeEvent } from 'react';
import { useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { MailSender } from './useMailSender';

export function EmailCodeRow({
  label,
  sendLabel,
  value,
  onChange,
  mail,
}: {
  label: string;
  sendLabel: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  mail: MailSender;
}) {
  const translate = useTranslate();
  return (
    <Stack direction="row" spacing={1} alignItems="flex-start">
      <TextField label={translate(label)} type="email" value={value} onChange={onChange} autoComplete="email" fullWidth />
      <Button
        variant="outlined"
        onClick={() => void mail.send(value)}
        disabled={mail.sending || mail.left > 0}
        sx={{ whiteSpace: 'nowrap', minWidth: 112, height: 56 }}
      >
        {mail.buttonText(sendLabel)}
      </Button>
    </Stack>
  );
}
