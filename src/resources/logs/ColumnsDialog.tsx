import { useState } from 'react';
import { Button, Checkbox, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, FormGroup } from '@mui/material';
import ViewColumnIcon from '@mui/icons-material/ViewColumn';
import { useTranslate } from 'react-admin';
import type { LogColumnKey } from './columnSettings';

interface ColumnsButtonProps {
  available: LogColumnKey[];
  isShown: (key: LogColumnKey) => boolean;
  toggle: (key: LogColumnKey) => void;
  reset: () => void;
}

/** Chooses the shown columns; each change applies at once and is remembered. */
export function ColumnsButton({ available, isShown, toggle, reset }: ColumnsButtonProps) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" startIcon={<ViewColumnIcon />} onClick={() => setOpen(true)}>
        {translate('resources.logs.columns.button')}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="xs" fullWidth>
        <DialogTitle>{translate('resources.logs.columns.title')}</DialogTitle>
        <DialogContent>
          <FormGroup>
            {available.map((key) => (
              <FormControlLabel
                key={key}
                control={<Checkbox checked={isShown(key)} onChange={() => toggle(key)} />}
                label={translate(`resources.logs.fields.${key}`)}
              />
            ))}
          </FormGroup>
        </DialogContent>
        <DialogActions>
          <Button onClick={reset}>{translate('resources.logs.columns.reset')}</Button>
          <Button variant="contained" onClick={() => setOpen(false)}>
            {translate('ra.action.close')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
