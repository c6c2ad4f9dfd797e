/**
 * The `visual` sub-tab: every priced model in one table, edited in place or through the add / edit
 * dialog, searched by name, batch set, and saved as ModelPrice / ModelRatio / CompletionRatio
 * (only the options whose content changed are sent).
 */
import { useEffect, useMemo, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import SearchIcon from '@mui/icons-material/Search';
import type { OptionsState } from '../useOptions';
import { BatchDialog } from './BatchDialog';
import { PriceDialog } from './PriceDialog';
import { PricingTable } from './PricingTable';
import {
  addRow,
  batchSet,
  draftFromRow,
  emptyDraft,
  filterRows,
  optionsFromRows,
  removeRow,
  rowsFromOptions,
  updateCell,
  upsertRow,
  validateRows,
  type PriceDraft,
  type PricingRow,
  type Problem,
} from './pricing';
import { usePricingSource, useSelection } from './usePricingSource';

export default function PricingEditor({ options }: { options: OptionsState }) {
  const translate = useTranslate();
  const notify = useNotify();
  const source = usePricingSource(options.values);
  const [rows, setRows] = useState<PricingRow[]>(() => rowsFromOptions(source));
  useEffect(() => setRows(rowsFromOptions(source)), [source]);
  const [search, setSearch] = useState('');
  const selection = useSelection();
  const [dialog, setDialog] = useState<{ draft: PriceDraft; editing: boolean } | null>(null);
  const [batchOpen, setBatchOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const shown = useMemo(() => filterRows(rows, search), [rows, search]);
  const t = (key: string) => translate(`settings_operation.pricing.${key}`);
  const show = (problem: Problem) => notify(translate(problem.message, problem.args), { type: 'warning' });

  const submitDialog = (row: PricingRow): Problem | null => {
    if (dialog?.editing) {
      setRows((old) => upsertRow(old, row));
    } else {
      const added = addRow(rows, row);
      if (!added.ok) return added.problem;
      setRows(added.value);
    }
    setDialog(null);
    return null;
  };

  const applyBatch = (field: Parameters<typeof batchSet>[2], value: string, second: string): Problem | null => {
    const result = batchSet(rows, [...selection.selected], field, value, second);
    if (!result.ok) return result.problem;
    setRows(result.value);
    setBatchOpen(false);
    return null;
  };

  const openBatch = () => {
    if (selection.selected.size === 0) show({ message: 'settings_operation.pricing.errors.batch_no_selection' });
    else setBatchOpen(true);
  };

  const save = async () => {
    const problem = validateRows(rows);
    if (problem) return show(problem);
    setBusy(true);
    try {
      await options.save(optionsFromRows(rows, options.values));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', mb: 1 }}>
        <TextField
          size="small"
          label={t('search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Button variant="outlined" onClick={() => setDialog({ draft: emptyDraft(), editing: false })}>
          {t('add')}
        </Button>
        <Button variant="outlined" onClick={openBatch}>
          {t('batch')}
        </Button>
        <Button variant="contained" onClick={save} disabled={busy || options.loading}>
          {t('save')}
        </Button>
      </Box>
      <PricingTable
        rows={shown}
        selected={selection.selected}
        onSelect={selection.toggle}
        onCell={(name, field, value) => setRows((old) => updateCell(old, name, field, value))}
        onEdit={(row) => setDialog({ draft: draftFromRow(row), editing: true })}
        onDelete={(row) => {
          setRows((old) => removeRow(old, row.name));
          selection.toggle([row.name], false);
        }}
      />
      <PriceDialog
        initial={dialog?.draft ?? null}
        nameLocked={dialog?.editing}
        onClose={() => setDialog(null)}
        onSubmit={submitDialog}
      />
      <BatchDialog open={batchOpen} count={selection.selected.size} onClose={() => setBatchOpen(false)} onApply={applyBatch} />
    </Box>
  );
}
