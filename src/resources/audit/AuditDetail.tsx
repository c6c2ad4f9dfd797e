/**
 * The detail of one audit row: who, when, from where, under which request id, and the change —
 * each field before and after (a created subject has only "after", a deleted one only "before").
 * Secrets arrive masked from the server.
 */
import type { ReactNode } from 'react';
import { Box, LinearProgress, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import type { AuditField, AuditItem, AuditListItem } from '../../../server/audit/schemas';
import { formatTimestamp } from '../schema';
import { ActorCell, OutcomeChip, SubjectCell } from './AuditCells';

const I18N = 'resources.audit';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'contents' }}>
      <Typography component="dt" variant="caption" color="text.secondary" sx={{ pt: 0.25 }}>
        {translate(`${I18N}.fields.${label}`)}
      </Typography>
      <Box component="dd" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere', typography: 'body2' }}>
        {children}
      </Box>
    </Box>
  );
}

/** A value as text: objects as JSON, "" as "(empty)". */
function Value({ value }: { value: unknown }) {
  const translate = useTranslate();
  if (value === '' || value === null || value === undefined) {
    return (
      <Typography component="span" variant="body2" color="text.secondary">
        {translate(`${I18N}.empty`)}
      </Typography>
    );
  }
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return (
    <Box component="span" sx={{ fontFamily: 'monospace', fontSize: '0.8125rem', whiteSpace: 'pre-wrap' }}>
      {text}
    </Box>
  );
}

function Side({ change, side }: { change: AuditField; side: 'before' | 'after' }) {
  return side in change ? <Value value={change[side]} /> : <Typography color="text.disabled">—</Typography>;
}

function Changes({ changes }: { changes: AuditField[] }) {
  const translate = useTranslate();
  if (changes.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {translate(`${I18N}.no_changes`)}
      </Typography>
    );
  }
  const cell = { verticalAlign: 'top', overflowWrap: 'anywhere', px: 1 } as const;
  return (
    <Table size="small" aria-label={translate(`${I18N}.changes`)} sx={{ tableLayout: 'fixed' }}>
      <TableHead>
        <TableRow>
          <TableCell sx={{ ...cell, width: '28%' }}>{translate(`${I18N}.field`)}</TableCell>
          <TableCell sx={cell}>{translate(`${I18N}.before`)}</TableCell>
          <TableCell sx={cell}>{translate(`${I18N}.after`)}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {changes.map((change) => (
          <TableRow key={change.field} data-field={change.field}>
            <TableCell sx={cell}>{change.field}</TableCell>
            <TableCell sx={cell}>
              <Side change={change} side="before" />
            </TableCell>
            <TableCell sx={cell}>
              <Side change={change} side="after" />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export function AuditDetail() {
  const shown = useRecordContext<AuditItem | AuditListItem>();
  const translate = useTranslate();
  // The list's row shows first (react-admin's cache) and lacks the change: wait for the entry itself.
  if (!shown || !('changes' in shown)) return <LinearProgress aria-label={translate('ra.page.loading')} sx={{ m: 2 }} />;
  const record = shown;
  const details = Object.entries(record.detail);
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Box
        component="dl"
        sx={{ m: 0, display: 'grid', gridTemplateColumns: 'minmax(88px, auto) 1fr', columnGap: 1.5, rowGap: 0.75 }}
      >
        <Fact label="created_at">{formatTimestamp(record.created_at)}</Fact>
        <Fact label="actor">
          <ActorCell record={record} />
        </Fact>
        <Fact label="subject">
          <SubjectCell record={record} />
        </Fact>
        <Fact label="action">{translate(`${I18N}.actions.${record.action}`, { _: record.action })}</Fact>
        <Fact label="outcome">
          <OutcomeChip outcome={record.outcome} />
        </Fact>
        <Fact label="request_id">
          <Box component="span" sx={{ fontFamily: 'monospace' }}>
            {record.request_id}
          </Box>
        </Fact>
        <Fact label="ip">{record.ip}</Fact>
        <Fact label="route">{record.route}</Fact>
        {details.map(([key, value]) => (
          <Box key={key} sx={{ display: 'contents' }}>
            <Typography component="dt" variant="caption" color="text.secondary" sx={{ pt: 0.25 }}>
              {translate(`${I18N}.details.${key}`, { _: key })}
            </Typography>
            <Box component="dd" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere', typography: 'body2' }}>
              {key.endsWith('timestamp') ? formatTimestamp(Number(value)) : String(value)}
            </Box>
          </Box>
        ))}
      </Box>
      <Typography variant="subtitle2">{translate(`${I18N}.changes`)}</Typography>
      <Changes changes={record.changes} />
    </Stack>
  );
}
