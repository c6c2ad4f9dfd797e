import type { ReactNode } from 'react';
import { Button as MuiButton } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { useRecordContext, useTranslate, type RaRecord } from 'react-admin';
import { Link, useLocation } from 'react-router-dom';

type Drawer = 'edit' | 'show';

const DRAWERS = {
  edit: { icon: <EditIcon />, label: 'ra.action.edit' },
  show: { icon: <VisibilityIcon />, label: 'ra.action.show' },
} satisfies Record<Drawer, { icon: ReactNode; label: string }>;

/** The path of one of a record's drawers: `/<resource>/<drawer>/<id>`. */
export const drawerPath = (resource: string, drawer: Drawer, id: RaRecord['id']) =>
  `/${resource}/${drawer}/${encodeURIComponent(String(id))}`;

/** A row action opening one of the row's record's drawers, keeping the list's filters. */
function RowDrawerButton({ resource, drawer, disabled }: { resource: string; drawer: Drawer; disabled?: boolean }) {
  const record = useRecordContext<RaRecord>();
  const translate = useTranslate();
  const location = useLocation();
  if (!record) return null;
  return (
    <MuiButton
      size="small"
      startIcon={DRAWERS[drawer].icon}
      component={Link}
      to={{ pathname: drawerPath(resource, drawer, record.id), search: location.search }}
      disabled={disabled}
    >
      {translate(DRAWERS[drawer].label)}
    </MuiButton>
  );
}

/** Opens the edit drawer of the row's record. */
export const SchemaEditButton = (props: { resource: string; disabled?: boolean }) => <RowDrawerButton {...props} drawer="edit" />;

/** Opens the detail drawer of the row's record (a resource that declares `show`). */
export const SchemaShowButton = (props: { resource: string }) => <RowDrawerButton {...props} drawer="show" />;
