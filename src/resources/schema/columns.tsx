/**
 * Columns of a list: the schema's list fields this person may see, the row actions last, and —
 * when the resource asks for column settings — which of them are switched on, remembered in
 * localStorage as `{ column: shown }`.
 */
import { useCallback, useState } from 'react';
import { Button, Checkbox, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, FormGroup } from '@mui/material';
import ViewColumnIcon from '@mui/icons-material/ViewColumn';
import { useTranslate, useTranslateLabel } from 'react-admin';
import { useAccessPolicy } from '../../authProvider/access';
import { listFields } from './access';
import type { FieldSchema, ResourceSchema } from './types';

/** The source of the row actions' column. */
export const ACTIONS_COLUMN = 'actions';

export type ColumnChoice = Record<string, boolean>;

export function storedColumnChoice(key: string | undefined): ColumnChoice {
  if (!key) return {};
  try {
    const value: unknown = JSON.parse(localStorage.getItem(key) ?? '{}');
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter(([, shown]) => typeof shown === 'boolean')) as ColumnChoice;
  } catch {
    // A damaged entry shows every column.
    return {};
  }
}

export interface Columns {
  /** The list fields shown, in order. */
  fields: FieldSchema[];
  /** Whether the row actions show. */
  actions: boolean;
  /** Column settings, when the resource has them. */
  settings: ColumnSettings | null;
}

export interface ColumnSettings {
  /** Every column this person may see: source and its own label key, if any. */
  available: { source: string; label: string | undefined }[];
  isShown: (source: string) => boolean;
  toggle: (source: string) => void;
  reset: () => void;
}

export function useColumns(schema: ResourceSchema, role: number): Columns {
  const key = schema.list?.columnSettings;
  const [choice, setChoice] = useState<ColumnChoice>(() => storedColumnChoice(key));
  const permitted = listFields(schema, role, useAccessPolicy());
  const available = [
    ...permitted.map((f) => ({ source: f.source, label: f.label })),
    ...(schema.rowActions ? [{ source: ACTIONS_COLUMN, label: `resources.${schema.name}.fields.${ACTIONS_COLUMN}` }] : []),
  ];
  const isShown = useCallback((source: string) => choice[source] !== false, [choice]);
  const save = (next: ColumnChoice) => {
    if (key) localStorage.setItem(key, JSON.stringify(next));
    setChoice(next);
  };
  // Every offered column is stored, so the saved choice reads the same whatever is added later.
  const toggle = (source: string) =>
    save({ ...Object.fromEntries(available.map((c) => [c.source, isShown(c.source)])), [source]: !isShown(source) });
  return {
    fields: permitted.filter((f) => !key || isShown(f.source)),
    actions: !!schema.rowActions && (!key || isShown(ACTIONS_COLUMN)),
    settings: key ? { available, isShown, toggle, reset: () => save({}) } : null,
  };
}

/** Chooses the shown columns; each change applies at once and is remembered. */
export function ColumnSettingsButton({ settings }: { settings: ColumnSettings }) {
  const translate = useTranslate();
  const translateLabel = useTranslateLabel();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" startIcon={<ViewColumnIcon />} onClick={() => setOpen(true)}>
        {translate('app.list.columns')}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="xs" fullWidth>
        <DialogTitle>{translate('app.list.columns_title')}</DialogTitle>
        <DialogContent>
          <FormGroup>
            {settings.available.map(({ source, label }) => (
              <FormControlLabel
                key={source}
                control={<Checkbox checked={settings.isShown(source)} onChange={() => settings.toggle(source)} />}
                label={translateLabel({ label, source })}
              />
            ))}
          </FormGroup>
        </DialogContent>
        <DialogActions>
          <Button onClick={settings.reset}>{translate('app.list.columns_reset')}</Button>
          <Button variant="contained" onClick={() => setOpen(false)}>
            {translate('ra.action.close')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
