/** /: the notice, then the admin's home page content (an address → iframe, else markdown). */
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useStatus } from '../../status/status';
import { SafeContent, isExternalPage } from '../shared/SafeContent';
import { useOptionText } from '../shared/useOptionText';
import { NoticeBanner } from './NoticeBanner';

function Welcome() {
  const translate = useTranslate();
  const { status } = useStatus();
  const name = status?.system_name || translate('pages.home.default_system_name');
  return (
    <Stack spacing={2} alignItems="center" sx={{ textAlign: 'center', py: { xs: 6, sm: 12 }, px: 2 }}>
      <Typography variant="h3" component="h1">
        {translate('pages.home.welcome', { name })}
      </Typography>
      <Typography color="text.secondary" sx={{ maxWidth: 640 }}>
        {translate('pages.home.intro')}
      </Typography>
      {status?.version && (
        <Typography variant="body2" color="text.secondary">
          {translate('pages.home.version', { version: status.version })}
        </Typography>
      )}
      <Button component={RouterLink} to="/token" variant="contained" size="large">
        {translate('pages.home.start')}
      </Button>
    </Stack>
  );
}

export default function HomePage() {
  const translate = useTranslate();
  const content = useOptionText('home_page_content');
  return (
    <Box>
      <NoticeBanner />
      {content === null ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }}>
          <CircularProgress aria-label={translate('pages.common.loading')} />
        </Box>
      ) : content.trim() ? (
        <SafeContent
          content={content}
          title={translate('pages.home.title')}
          sx={isExternalPage(content) ? undefined : { p: { xs: 2, sm: 4 }, maxWidth: 1100, mx: 'auto' }}
        />
      ) : (
        <Welcome />
      )}
    </Box>
  );
}
