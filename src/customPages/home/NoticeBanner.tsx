/** The site notice above the home page; closing it hides it until the next visit. */
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import { SafeContent } from '../shared/SafeContent';
import { useOptionText } from '../shared/useOptionText';

export function NoticeBanner() {
  const translate = useTranslate();
  const notice = useOptionText('notice');
  const [closed, setClosed] = useState(false);
  if (closed || !notice?.trim()) return null;
  return (
    <Alert
      severity="info"
      onClose={() => setClosed(true)}
      sx={{ m: 2 }}
      slotProps={{ closeButton: { title: translate('pages.common.close') } }}
    >
      <AlertTitle>{translate('pages.home.notice')}</AlertTitle>
      <SafeContent content={notice} title={translate('pages.home.notice')} sx={{ '& p': { m: 0 } }} />
    </Alert>
  );
}
