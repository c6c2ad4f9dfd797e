import { Button as MuiButton } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import { useRecordContext, useTranslate, type RaRecord } from 'react-admin';
import { Link, useLocation } from 'react-router-dom';

/** Opens the edit drawer of the row's record (`/<name>/edit/<id>`), keeping the list's filters. */
export function SchemaEditButton({ resource, disabled }: { resource: string; disabled?: boolean }) {
  const record = useRecordContext<RaRecord>();
  const translate = useTranslate();
  const location = useLocation();
  if (!record) return null;
  return (
    <MuiButton
      size="small"
      startIcon={<EditIcon />}
      component={Link}
      to={{ pathname: `/${resource}/edit/${encodeURIComponent(String(record.id))}`, search: location.search }}
      disabled={disabled}
    >
      {translate('ra.action.edit')}
    </MuiButton>
  );
}
