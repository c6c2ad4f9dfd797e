/**
 * The `unset_models` sub-tab: models enabled on some channel (GET /api/channel/models_enabled) that
 * have neither a fixed price nor a model ratio. Prices typed here (in place, by dialog or batch set)
 * are merged into the stored options on save; saved models drop out of the list.
 */
import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useGateway } from '../../../api/customMethods';
import type { OptionsState } from '../useOptions';
import { BatchDialog } from './BatchDialog';
import { PriceDialog } from './PriceDialog';
import { PricingTable } from './PricingTable';
import {
  batchSet,
  draftFromRow,
  isPriced,
  optionsFromRows,
  rowsFromOptions,
  unsetModels,
  upsertRow,
  validateRows,
  type BatchField,
  type PriceDraft,
  type PricingRow,
  type Problem,
} from './pricing';
import { usePricingSource, useSelection } from './usePricingSource';

const NO_MODELS: string[] = [];

export default function UnsetModels({ options }: { options: OptionsState }) {
  const translate = useTranslate();
  const notify = useNotify();
  const source = usePricingSource(options.values);
  const saved = useMemo(() => rowsFromOptions(source), [source]);
  const [drafts, setDrafts] = useState<Record<string, PricingRow>>({});
  const selection = useSelection();
  const [dialog, setDialog] = useState<PriceDraft | null>(null);
  const [batchOpen, setBatchOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const t = (key: string) => translate(`settings_operation.pricing.${key}`);
  const show = (problem: Problem) => notify(translate(problem.message, problem.args), { type: 'warning' });

  const gateway = useGateway();
  const query = useQuery({
    queryKey: ['channel-enabled-models'],
    queryFn: () => gateway.getEnabledModels(),
    retry: false,
    // Read on opening and on "reload" only: a spinner must not replace the table when the window regains focus.
    refetchOnWindowFocus: false,
  });
  const { error, refetch } = query;
  // A failed read shows as an empty list with its reason.
  const enabled = query.isFetching ? null : error ? NO_MODELS : (query.data ?? null);
  useEffect(() => {
    if (!error) return;
    notify(
      `${translate('settings_operation.pricing.errors.enabled_failed')}: ${translate(error.message, { _: error.message })}`,
      {
        type: 'error',
      },
    );
  }, [error, notify, translate]);

  const rows = useMemo(() => {
    const byName = new Map(saved.map((row) => [row.name, row]));
    return unsetModels(enabled ?? [], saved).map(
      (name) => drafts[name] ?? byName.get(name) ?? { name, price: '', ratio: '', completionRatio: '' },
    );
  }, [enabled, saved, drafts]);

  const keep = (changed: readonly PricingRow[]) =>
    setDrafts((old) => ({ ...old, ...Object.fromEntries(changed.map((row) => [row.name, row])) }));

  const applyBatch = (field: BatchField, value: string, second: string): Problem | null => {
    const result = batchSet(rows, [...selection.selected], field, value, second);
    if (!result.ok) return result.problem;
    keep(result.value.filter((row) => selection.selected.has(row.name)));
    setBatchOpen(false);
    return null;
  };

  const save = async () => {
    const problem = validateRows(rows);
    if (problem) return show(problem);
    const filled = rows.filter(isPriced);
    if (filled.length === 0) return show({ message: 'settings_operation.pricing.errors.nothing_to_save' });
    setBusy(true);
    try {
      const merged = filled.reduce<PricingRow[]>((all, row) => upsertRow(all, row), saved);
      if (await options.save(optionsFromRows(merged, options.values))) {
        setDrafts({});
        selection.clear();
      }
    } finally {
      setBusy(false);
    }
  };

  if (enabled === null) return <CircularProgress size={24} />;
  return (
    <Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 1 }}>
        <Button
          variant="outlined"
          onClick={() =>
            selection.selected.size === 0
              ? show({ message: 'settings_operation.pricing.errors.batch_no_selection' })
              : setBatchOpen(true)
          }
        >
          {t('batch')}
        </Button>
        <Button variant="outlined" onClick={() => void refetch()}>
          {t('refresh')}
        </Button>
        <Button variant="contained" onClick={save} disabled={busy || options.loading || rows.length === 0}>
          {t('save')}
        </Button>
      </Box>
      {rows.length === 0 ? (
        <Alert severity="success">{t('all_set')}</Alert>
      ) : (
        <PricingTable
          rows={rows}
          selected={selection.selected}
          onSelect={selection.toggle}
          onCell={(name, field, value) => {
            const row = rows.find((r) => r.name === name);
            if (row) keep([{ ...row, [field]: value }]);
          }}
          onEdit={(row) => setDialog(draftFromRow(row))}
          choosePageSize
        />
      )}
      <PriceDialog
        initial={dialog}
        nameLocked
        onClose={() => setDialog(null)}
        onSubmit={(row) => {
          keep([row]);
          setDialog(null);
          return null;
        }}
      />
      <BatchDialog open={batchOpen} count={selection.selected.size} onClose={() => setBatchOpen(false)} onApply={applyBatch} />
    </Box>
  );
}
