/** Catch-all: the address matches no page. */
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

export default function NotFoundPage() {
  const translate = useTranslate();
  return (
    <Stack spacing={2} alignItems="center" sx={{ textAlign: 'center', py: 10, px: 2 }}>
      <Typography variant="h1" component="p" color="text.secondary">
        404
      </Typography>
      <Typography variant="h5" component="h1">
        {translate('pages.not_found.title')}
      </Typography>
      <Typography color="text.secondary">{translate('pages.not_found.hint')}</Typography>
      <Button component={RouterLink} to="/" variant="outlined">
        {translate('pages.not_found.home')}
      </Button>
    </Stack>
  );
}
