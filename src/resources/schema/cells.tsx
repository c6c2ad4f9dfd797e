import { Chip } from '@mui/material';
import { useRecordContext, useTranslate, type RaRecord } from 'react-admin';
import { formatQuota } from '../../status/status';
import { choiceLabel, useChoices } from './choices';
import { formatTimestamp } from './format';
import type { FieldSchema } from './types';

/** The default list cell of a schema field, by type; `render` in the schema replaces it. */
export function SchemaCell({ field }: { field: FieldSchema }) {
  const record = useRecordContext<RaRecord>();
  const translate = useTranslate();
  if (!record) return null;
  if (field.render) return <>{field.render(record)}</>;
  const value: unknown = record[field.source];
  switch (field.type) {
    case 'quota':
      return <>{formatQuota(Number(value ?? 0))}</>;
    case 'date':
      return <>{formatTimestamp(Number(value ?? 0))}</>;
    case 'boolean':
      return <>{translate(value ? 'ra.boolean.true' : 'ra.boolean.false')}</>;
    case 'select':
      return <SelectCell field={field} value={value} />;
    case 'password':
      return null;
    default:
      return <>{value === undefined || value === null ? '' : String(value)}</>;
  }
}

/**
 * A select field's value by its choice's name: a static choice's label key (or the unknown label),
 * a loaded choice's name (the value itself until the choices arrive, or when none has it).
 */
function SelectCell({ field, value }: { field: FieldSchema; value: unknown }) {
  const translate = useTranslate();
  const { choices } = useChoices(field);
  const loaded = Array.isArray(field.choices) ? undefined : choices.find((c) => String(c.id) === String(value));
  const label = loaded ? loaded.name : choiceLabel(field, value);
  return label ? <Chip size="small" variant="outlined" label={translate(label, { _: label })} /> : null;
}
