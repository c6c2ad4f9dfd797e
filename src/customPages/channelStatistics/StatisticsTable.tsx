import { useState } from 'react';
import { useTranslate } from 'react-admin';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableFooter from '@mui/material/TableFooter';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import { formatQuota } from '../../status/status';
import { ratePercent, sortRows, totals, type ChannelUseRow, type SortField, type SortOrder } from './statistics';

const COLUMNS: SortField[] = ['channel_id', 'model_name', 'token_used', 'count', 'quota', 'cache_hit_rate'];
const S = 'resources.channel.statistics.';

/** A value that copies itself when clicked. */
function Copyable({ text, onCopy }: { text: string; onCopy: (text: string) => void }) {
  return (
    <Link component="button" type="button" underline="hover" color="inherit" onClick={() => onCopy(text)}>
      {text}
    </Link>
  );
}

/** The rows, sortable by every column, with totals of count, tokens, spend and cache-hit rate in the footer. */
export function StatisticsTable({
  rows,
  loading,
  quotaPerUnit,
  onCopy,
}: {
  rows: ChannelUseRow[];
  loading: boolean;
  quotaPerUnit: number;
  onCopy: (text: string) => void;
}) {
  const translate = useTranslate();
  const [sort, setSort] = useState<{ field: SortField; order: SortOrder } | null>(null);
  const shown = sort ? sortRows(rows, sort.field, sort.order) : rows;
  const sum = totals(rows);
  const display = (row: ChannelUseRow, field: SortField) => {
    if (field === 'quota') return formatQuota(row.quota, quotaPerUnit);
    if (field === 'cache_hit_rate') return ratePercent(row.cache_hit_rate) || '-';
    return String(row[field]);
  };
  const toggle = (field: SortField) =>
    setSort((current) => ({ field, order: current?.field === field && current.order === 'asc' ? 'desc' : 'asc' }));

  return (
    <Paper>
      {loading && <LinearProgress />}
      <TableContainer>
        <Table size="small">
          <TableHead>
            <TableRow>
              {COLUMNS.map((field) => (
                <TableCell key={field} sortDirection={sort?.field === field ? sort.order : false}>
                  <TableSortLabel
                    active={sort?.field === field}
                    direction={sort?.field === field ? sort.order : 'asc'}
                    onClick={() => toggle(field)}
                  >
                    {translate(`${S}${field}`)}
                  </TableSortLabel>
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.length === 0 && !loading && (
              <TableRow>
                <TableCell colSpan={COLUMNS.length} align="center">
                  {translate(`${S}empty`)}
                </TableCell>
              </TableRow>
            )}
            {shown.map((row) => (
              <TableRow key={`${row.channel_id}-${row.model_name}`}>
                {COLUMNS.map((field) => (
                  <TableCell key={field}>
                    <Copyable text={display(row, field)} onCopy={onCopy} />
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
          <TableFooter>
            <TableRow data-testid="statistics-totals">
              <TableCell>{translate(`${S}total`)}</TableCell>
              <TableCell />
              <TableCell>
                <Copyable text={String(sum.token_used)} onCopy={onCopy} />
              </TableCell>
              <TableCell>
                <Copyable text={String(sum.count)} onCopy={onCopy} />
              </TableCell>
              <TableCell>
                <Copyable text={formatQuota(sum.quota, quotaPerUnit)} onCopy={onCopy} />
              </TableCell>
              <TableCell>
                <Copyable text={ratePercent(sum.cache_hit_rate) || '-'} onCopy={onCopy} />
              </TableCell>
            </TableRow>
          </TableFooter>
        </Table>
      </TableContainer>
    </Paper>
  );
}
