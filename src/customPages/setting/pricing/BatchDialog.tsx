/** Batch set: one value (or both ratios) applied to every selected model of the pricing table. */
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { BatchField, Problem } from './pricing';

const FIELDS: readonly BatchField[] = ['price', 'ratio', 'completionRatio', 'both'];

interface Props {
  open: boolean;
  count: number;
  onClose(): void;
  /** Applies the values; a problem keeps the dialog open and is shown. */
  onApply(field: BatchField, value: string, second: string): Problem | null;
}

export function BatchDialog({ open, count, onClose, onApply }: Props) {
  const translate = useTranslate();
  const notify = useNotify();
  const [field, setField] = useState<BatchField>('ratio');
  const [value, setValue] = useState('');
  const [second, setSecond] = useState('');
  const t = (key: string, args?: Record<string, string | number>) => translate(`settings_operation.pricing.${key}`, args);

  const apply = () => {
    const problem = onApply(field, value, second);
    if (problem) {
      notify(translate(problem.message, problem.args), { type: 'warning' });
      return;
    }
    setValue('');
    setSecond('');
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{t('batch_title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Typography variant="body2">{t('batch_count', { count })}</Typography>
          <TextField select label={t('batch_field')} value={field} onChange={(e) => setField(e.target.value as BatchField)}>
            {FIELDS.map((key) => (
              <MenuItem key={key} value={key}>
                {t(`batch_fields.${key}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label={field === 'both' ? t('columns.ratio') : t('batch_value')}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            slotProps={{ htmlInput: { inputMode: 'decimal' } }}
          />
          {field === 'both' && (
            <TextField
              label={t('columns.completionRatio')}
              value={second}
              onChange={(e) => setSecond(e.target.value)}
              slotProps={{ htmlInput: { inputMode: 'decimal' } }}
            />
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        <Button variant="contained" onClick={apply}>
          {t('batch_apply')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
