import { Fab, Tooltip } from '@mui/material';
import SupportAgentIcon from '@mui/icons-material/SupportAgent';
import { useTranslate } from 'react-admin';

/** Only a web address becomes the button's target; anything else (a `javascript:` link) shows no button. */
const WEB_LINK = /^https?:\/\/[^\s"'<>]+$/i;

/**
 * The floating customer-service button: the SupportLink option's address in a new tab. On a phone it
 * sits above the lists' floating create button.
 */
export function SupportButton({ link }: { link: string | undefined }) {
  const translate = useTranslate();
  if (!link || !WEB_LINK.test(link)) return null;
  const label = translate('app.header.support');
  return (
    <Tooltip title={label}>
      <Fab
        component="a"
        href={link}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={label}
        color="primary"
        size="medium"
        sx={{ position: 'fixed', right: 16, bottom: { xs: 88, sm: 24 }, zIndex: (theme) => theme.zIndex.speedDial }}
      >
        <SupportAgentIcon />
      </Fab>
    </Tooltip>
  );
}
