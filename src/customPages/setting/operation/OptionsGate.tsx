/** Shows a settings tab once the options are loaded: a spinner first, a retry when loading failed (never an empty form to save over them). */
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import type { OptionsState } from '../useOptions';

export function OptionsGate({ options, children }: { options: OptionsState; children: ReactNode }) {
  const translate = useTranslate();
  if (Object.keys(options.values).length > 0) return <>{children}</>;
  if (options.loading) return <CircularProgress size={24} />;
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={() => void options.reload()}>
          {translate('settings_operation.retry')}
        </Button>
      }
    >
      {translate('settings_operation.load_failed')}
    </Alert>
  );
}
