/**
 * Add or edit one model's price: per-request (fixed USD per call) or per-token, typed either as
 * ratios or as USD per 1M tokens, converted both ways when switching
 * (USD per 1M tokens = ratio × 2).
 */
import { useEffect, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { builtInCompletionRatio } from '../../../../server/shared';
import {
  completionPriceOf,
  completionRatioFromPrices,
  draftToRow,
  parseAmount,
  ratioToTokenPrice,
  switchMode,
  switchTokenInput,
  tokenPriceToRatio,
  type PriceDraft,
  type PriceMode,
  type PricingRow,
  type Problem,
  type TokenInput,
} from './pricing';

interface Props {
  /** The draft to start from; the dialog is open while set. */
  initial: PriceDraft | null;
  /** Editing an existing model: its name cannot change. */
  nameLocked?: boolean;
  onClose(): void;
  /** Takes the row; a problem keeps the dialog open and is shown. */
  onSubmit(row: PricingRow): Problem | null;
}

const amount = (text: string): number | undefined => {
  const value = parseAmount(text);
  return value === null || Number.isNaN(value) ? undefined : value;
};

export function PriceDialog({ initial, nameLocked, onClose, onSubmit }: Props) {
  const translate = useTranslate();
  const notify = useNotify();
  const [draft, setDraft] = useState<PriceDraft | null>(initial);
  useEffect(() => setDraft(initial), [initial]);
  const t = (key: string, args?: Record<string, string | number>) => translate(`settings_operation.pricing.${key}`, args);
  const show = (problem: Problem) => notify(translate(problem.message, problem.args), { type: 'warning' });

  if (!draft) return <Dialog open={false} />;
  const set = (field: keyof PriceDraft) => (e: { target: { value: string } }) => setDraft({ ...draft, [field]: e.target.value });

  const chooseInput = (next: TokenInput) => {
    const switched = switchTokenInput(draft, next);
    if (switched.ok) setDraft(switched.value);
    else show(switched.problem);
  };

  const submit = () => {
    const row = draftToRow(draft);
    if (!row.ok) return show(row.problem);
    const problem = onSubmit(row.value);
    if (problem) show(problem);
  };

  const ratio = amount(draft.ratio);
  const completion = amount(draft.completionRatio);
  const tokenPrice = amount(draft.tokenPrice);
  const completionPrice = amount(draft.completionTokenPrice);
  const derivedCompletion =
    tokenPrice !== undefined && completionPrice !== undefined
      ? completionRatioFromPrices(tokenPrice, completionPrice)
      : undefined;

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{t(nameLocked ? 'edit_title' : 'add_title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label={t('columns.name')}
            value={draft.name}
            onChange={set('name')}
            disabled={nameLocked}
            autoFocus={!nameLocked}
          />
          <RadioGroup row value={draft.mode} onChange={(e) => setDraft(switchMode(draft, e.target.value as PriceMode))}>
            <FormControlLabel value="per_token" control={<Radio />} label={t('mode.per_token')} />
            <FormControlLabel value="per_request" control={<Radio />} label={t('mode.per_request')} />
          </RadioGroup>
          {draft.mode === 'per_request' ? (
            <TextField label={t('fixed_price')} value={draft.price} onChange={set('price')} helperText={t('fixed_price_hint')} />
          ) : (
            <>
              <RadioGroup row value={draft.tokenInput} onChange={(e) => chooseInput(e.target.value as TokenInput)}>
                <FormControlLabel value="ratio" control={<Radio />} label={t('input.ratio')} />
                <FormControlLabel value="price" control={<Radio />} label={t('input.price')} />
              </RadioGroup>
              {draft.tokenInput === 'ratio' ? (
                <>
                  <TextField
                    label={t('columns.ratio')}
                    value={draft.ratio}
                    onChange={set('ratio')}
                    helperText={ratio === undefined ? ' ' : t('input_price_is', { price: ratioToTokenPrice(ratio) })}
                  />
                  <TextField
                    label={t('columns.completionRatio')}
                    value={draft.completionRatio}
                    onChange={set('completionRatio')}
                    placeholder={String(builtInCompletionRatio(draft.name.trim()))}
                    helperText={
                      ratio === undefined || (completion === undefined && draft.completionRatio.trim() !== '')
                        ? t('completion_ratio_hint', { value: builtInCompletionRatio(draft.name.trim()) })
                        : t('output_price_is', {
                            price: completionPriceOf(ratio, completion ?? builtInCompletionRatio(draft.name.trim())),
                          })
                    }
                  />
                </>
              ) : (
                <>
                  <TextField
                    label={t('token_price')}
                    value={draft.tokenPrice}
                    onChange={set('tokenPrice')}
                    helperText={tokenPrice === undefined ? ' ' : t('ratio_is', { ratio: tokenPriceToRatio(tokenPrice) })}
                  />
                  <TextField
                    label={t('completion_token_price')}
                    value={draft.completionTokenPrice}
                    onChange={set('completionTokenPrice')}
                    helperText={
                      derivedCompletion !== undefined
                        ? t('completion_ratio_is', { ratio: derivedCompletion })
                        : tokenPrice === 0 && completionPrice !== undefined
                          ? translate('settings_operation.pricing.errors.zero_price')
                          : ' '
                    }
                  />
                </>
              )}
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        <Button variant="contained" onClick={submit}>
          {translate('ra.action.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
