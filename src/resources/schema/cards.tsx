/**
 * The phone rows of a schema's list: one card per record with every shown column as a labelled
 * line and the row actions under it, the selection box when selection is on, and a group's
 * records under a toggle. Same columns, cells and actions as the table.
 */
import { useState } from 'react';
import { Box, Button, Card, CardActions, CardContent, Checkbox, Stack, Typography } from '@mui/material';
import {
  RecordContextProvider,
  useListContext,
  useRecordContext,
  useTranslate,
  useTranslateLabel,
  type RaRecord,
} from 'react-admin';
import { SchemaCell } from './cells';
import type { Columns } from './columns';
import type { ResourceSchema } from './types';

interface CardsProps {
  schema: ResourceSchema;
  columns: Columns;
  selectable: boolean;
  grouped: boolean;
  onContextMenu: ((record: RaRecord) => void) | undefined;
}

function RecordCard({ schema, columns, selectable, grouped, onContextMenu }: CardsProps) {
  const record = useRecordContext();
  const translate = useTranslate();
  const translateLabel = useTranslateLabel();
  const { selectedIds, onToggleItem } = useListContext();
  const [open, setOpen] = useState(false);
  if (!record) return null;
  const RowActions = schema.rowActions;
  const canSelect = selectable && (schema.list?.selection?.isSelectable?.(record) ?? true);
  const children = grouped ? schema.list?.groups?.childrenOf(record) : undefined;
  return (
    <Card
      variant="outlined"
      data-id={record.id}
      sx={{ ...(schema.rowSx?.(record) as object) }}
      onContextMenu={
        onContextMenu
          ? (event) => {
              event.preventDefault();
              onContextMenu(record);
            }
          : undefined
      }
    >
      <CardContent sx={{ pb: 1, '&:last-child': { pb: 1 } }}>
        {canSelect && (
          <Checkbox
            size="small"
            sx={{ float: 'right', m: -1 }}
            checked={selectedIds.includes(record.id)}
            onChange={() => onToggleItem(record.id)}
            slotProps={{ input: { 'aria-label': translate('ra.action.select_row') } }}
          />
        )}
        <Box
          component="dl"
          sx={{ m: 0, display: 'grid', gridTemplateColumns: 'minmax(72px, auto) 1fr', columnGap: 1.5, rowGap: 0.5 }}
        >
          {columns.fields.map((field) => (
            <Box key={field.source} sx={{ display: 'contents' }}>
              <Typography component="dt" variant="caption" color="text.secondary" sx={{ pt: 0.25 }}>
                {translateLabel({ label: field.label, source: field.source, resource: schema.name })}
              </Typography>
              <Box component="dd" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere', typography: 'body2' }}>
                <SchemaCell field={field} />
              </Box>
            </Box>
          ))}
        </Box>
      </CardContent>
      {columns.actions && RowActions && (
        <CardActions sx={{ pt: 0, flexWrap: 'wrap' }}>
          <RowActions />
        </CardActions>
      )}
      {children && (
        <Box sx={{ px: 1, pb: 1 }}>
          <Button size="small" aria-expanded={open} onClick={() => setOpen(!open)}>
            {translate(open ? 'app.list.collapse_group' : 'app.list.expand_group', { count: children.length })}
          </Button>
          {open && (
            <Stack spacing={1}>
              {children.map((child) => (
                <RecordContextProvider key={child.id} value={child}>
                  <RecordCard
                    schema={schema}
                    columns={columns}
                    selectable={selectable}
                    grouped={false}
                    onContextMenu={onContextMenu}
                  />
                </RecordContextProvider>
              ))}
            </Stack>
          )}
        </Box>
      )}
    </Card>
  );
}

export function SchemaCards(props: CardsProps) {
  const { data, isPending } = useListContext();
  const translate = useTranslate();
  if (isPending) return null;
  if (!data || data.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
        {translate('ra.navigation.no_results')}
      </Typography>
    );
  }
  return (
    <Stack spacing={1} sx={{ p: 1 }}>
      {data.map((record) => (
        <RecordContextProvider key={record.id} value={record}>
          <RecordCard {...props} />
        </RecordContextProvider>
      ))}
    </Stack>
  );
}
