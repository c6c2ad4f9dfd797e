/** /about: the admin's about text (an address → iframe, else sanitised markdown), or a default. */
import { useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { SafeContent, isExternalPage } from '../shared/SafeContent';
import { useOptionText } from '../shared/useOptionText';

export default function AboutPage() {
  const translate = useTranslate();
  const about = useOptionText('about');
  if (about === null) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }}>
        <CircularProgress aria-label={translate('pages.common.loading')} />
      </Box>
    );
  }
  if (about.trim() && isExternalPage(about)) return <SafeContent content={about} title={translate('pages.about.title')} />;
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 4 }, m: { xs: 1, sm: 2 } }}>
      <Typography variant="h5" component="h1" gutterBottom>
        {translate('pages.about.title')}
      </Typography>
      {about.trim() ? (
        <SafeContent content={about} title={translate('pages.about.title')} />
      ) : (
        <Typography color="text.secondary">{translate('pages.about.empty')}</Typography>
      )}
    </Paper>
  );
}
