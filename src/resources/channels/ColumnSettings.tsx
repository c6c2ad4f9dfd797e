import { useState } from 'react';
import { Button, Checkbox, FormControlLabel, Menu, MenuItem } from '@mui/material';
import ViewColumnIcon from '@mui/icons-material/ViewColumn';
import { useTranslate } from 'react-admin';

/** The table's optional columns, in display order. */
export const CHANNEL_COLUMNS = [
  'id',
  'name',
  'group',
  'type',
  'status',
  'response_time',
  'balance',
  'used_quota',
  'priority',
  'weight',
  'actions',
] as const;
export type ChannelColumn = (typeof CHANNEL_COLUMNS)[number];
export type ColumnVisibility = Record<ChannelColumn, boolean>;

/** localStorage key of the visible columns (spec 3: "channel table columns"). */
export const COLUMNS_KEY = 'channel-columns';

export function storedColumns(): ColumnVisibility {
  const all = Object.fromEntries(CHANNEL_COLUMNS.map((c) => [c, true])) as ColumnVisibility;
  try {
    const raw = localStorage.getItem(COLUMNS_KEY);
    const saved: unknown = raw ? JSON.parse(raw) : null;
    if (typeof saved !== 'object' || saved === null) return all;
    for (const column of CHANNEL_COLUMNS) {
      const value = (saved as Record<string, unknown>)[column];
      if (typeof value === 'boolean') all[column] = value;
    }
  } catch {
    // A damaged entry shows every column.
  }
  return all;
}

export function useColumnVisibility(): [ColumnVisibility, (column: ChannelColumn, visible: boolean) => void] {
  const [visible, setVisible] = useState(storedColumns);
  const change = (column: ChannelColumn, shown: boolean) => {
    setVisible((current) => {
      const next = { ...current, [column]: shown };
      localStorage.setItem(COLUMNS_KEY, JSON.stringify(next));
      return next;
    });
  };
  return [visible, change];
}

/** A menu of checkboxes, one per column. */
export function ColumnSettingsButton({
  visible,
  onChange,
}: {
  visible: ColumnVisibility;
  onChange: (column: ChannelColumn, visible: boolean) => void;
}) {
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button size="small" startIcon={<ViewColumnIcon />} onClick={(e) => setAnchor(e.currentTarget)}>
        {translate('resources.channels.actions.columns')}
      </Button>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {CHANNEL_COLUMNS.map((column) => (
          <MenuItem key={column} dense>
            <FormControlLabel
              control={<Checkbox size="small" checked={visible[column]} onChange={(e) => onChange(column, e.target.checked)} />}
              label={translate(`resources.channels.fields.${column}`)}
            />
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
